import Foundation

/// An RFC 3339 instant as Alpaca writes it: `2024-11-13T20:15:03.123456789Z`, with 0 to 9 fraction
/// digits (reference §0, §3.1). Parsed by hand because Foundation's `ISO8601DateFormatter` is unreliable
/// beyond 3 fraction digits; the nanoseconds are kept exactly, `date` rounds them to `Date`'s precision.
///
/// Accepts `Z` or a `±HH:MM` offset, `T`/`t` and `Z`/`z` (RFC 3339 §5.6 allows lower case), and a leap
/// second `:60` (it lands on the next second). Digits beyond the ninth are ignored: Alpaca never sends
/// them, and dropping them loses less than a nanosecond.
/// Private to the Alpaca adapter until it is merged with the shared `RFC3339` parser in `Wire/`.
struct AlpacaTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    let epochSeconds: Int64
    /// 0 ..< 1_000_000_000.
    let nanoseconds: Int32

    init(epochSeconds: Int64, nanoseconds: Int32) {
        self.epochSeconds = epochSeconds
        self.nanoseconds = nanoseconds
    }

    /// nil unless `text` is a complete RFC 3339 date-time.
    init?(_ text: String) {
        var cursor = Cursor(bytes: Array(text.utf8))
        guard
            let year = cursor.number(digits: 4), cursor.take("-"),
            let month = cursor.number(digits: 2), cursor.take("-"),
            let day = cursor.number(digits: 2), cursor.take("T") || cursor.take("t"),
            let hour = cursor.number(digits: 2), cursor.take(":"),
            let minute = cursor.number(digits: 2), cursor.take(":"),
            let second = cursor.number(digits: 2),
            (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second <= 60
        else { return nil }

        var nanos = 0
        if cursor.take(".") {
            var count = 0
            while let digit = cursor.digit() {
                if count < 9 { nanos = nanos * 10 + digit }
                count += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 9) { nanos *= 10 }
        }

        var offsetSeconds = 0
        if cursor.take("Z") || cursor.take("z") {
            offsetSeconds = 0
        } else if let sign = cursor.take("+") ? 1 : (cursor.take("-") ? -1 : nil) {
            guard let offsetHours = cursor.number(digits: 2), cursor.take(":"),
                  let offsetMinutes = cursor.number(digits: 2), offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard cursor.atEnd else { return nil }

        let days = Self.daysSinceEpoch(year: year, month: month, day: day)
        epochSeconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        nanoseconds = Int32(nanos)
    }

    /// The instant as a `Date`, which holds about 0.1 µs of precision at today's epoch values.
    var date: Date {
        Date(timeIntervalSince1970: Double(epochSeconds) + Double(nanoseconds) / 1_000_000_000)
    }

    var description: String { "\(epochSeconds).\(String(repeating: "0", count: 9 - String(nanoseconds).count))\(nanoseconds)" }

    static func < (lhs: AlpacaTimestamp, rhs: AlpacaTimestamp) -> Bool {
        (lhs.epochSeconds, lhs.nanoseconds) < (rhs.epochSeconds, rhs.nanoseconds)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private struct Cursor {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return Int(bytes[index] - UInt8(ascii: "0"))
        }

        /// Exactly `digits` decimal digits.
        mutating func number(digits: Int) -> Int? {
            var value = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }
}
