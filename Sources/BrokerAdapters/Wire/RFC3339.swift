import Foundation

/// RFC 3339 timestamps parsed by hand: `2024-11-13T20:15:03.123456789Z`, `Z` or a `±hh:mm` offset, `T`/`t`
/// and `Z`/`z` (RFC 3339 §5.6 allows lower case), a leap second `:60` (it lands on the next second).
/// Foundation's `ISO8601DateFormatter` is unreliable past 3 fraction digits (reference §0), and Alpaca
/// sends up to 9. RFC 3339 allows any number of fraction digits: those beyond the ninth are dropped, which
/// loses less than a nanosecond.
public enum RFC3339 {
    /// An instant as whole seconds since 1970 plus nanoseconds (0..<1e9): exact, unlike `Date`.
    public struct Instant: Sendable, Hashable, Comparable, CustomStringConvertible {
        public var secondsSince1970: Int64
        public var nanoseconds: Int32

        public init(secondsSince1970: Int64, nanoseconds: Int32) {
            self.secondsSince1970 = secondsSince1970
            self.nanoseconds = nanoseconds
        }

        /// The nearest `Date`. Built from the reference date, which is what `Date` stores, so the
        /// fraction is rounded once instead of twice.
        public var date: Date {
            EpochTimestamp.date(seconds: secondsSince1970, nanoseconds: Int64(nanoseconds))
        }

        /// Seconds since 1970 with all nine fraction digits, e.g. `1731528903.000000001`.
        public var description: String {
            // Before 1970 the fraction counts back from the whole second: -1 s + 0.5 s is "-0.500000000".
            let negative = secondsSince1970 < 0 && nanoseconds > 0
            let whole = negative ? -(secondsSince1970 + 1) : secondsSince1970
            let fraction = negative ? 1_000_000_000 - Int(nanoseconds) : Int(nanoseconds)
            let digits = String(fraction)
            return "\(negative ? "-" : "")\(whole).\(String(repeating: "0", count: 9 - digits.count))\(digits)"
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            (lhs.secondsSince1970, lhs.nanoseconds) < (rhs.secondsSince1970, rhs.nanoseconds)
        }
    }

    public static func date(from text: String) -> Date? {
        instant(from: text)?.date
    }

    /// The instant `text` names, or nil unless it is a complete, valid RFC 3339 date-time.
    public static func instant(from text: String) -> Instant? {
        var text = text
        return text.withUTF8 { instant(utf8: $0) }
    }

    /// The same, read from UTF-8 bytes where they lie: a stream decoder's timestamp straight from its
    /// frame, with no `String` made first (one allocation for a timestamp longer than 15 bytes, and the
    /// byte array this read from before, another).
    public static func instant(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Instant? {
        var reader = Reader(bytes: bytes)
        guard let year = reader.digits(4), reader.skip("-"),
              let month = reader.digits(2), reader.skip("-"),
              let day = reader.digits(2), reader.skip(either: "T", "t"),
              let hour = reader.digits(2), reader.skip(":"),
              let minute = reader.digits(2), reader.skip(":"),
              let second = reader.digits(2)
        else { return nil }
        guard (1...12).contains(month), (1...daysInMonth(month, year: year)).contains(day),
              hour <= 23, minute <= 59, second <= 60 // 60: a leap second, counted as the next second's start
        else { return nil }

        var nanoseconds: Int64 = 0
        if reader.skip(".") {
            var count = 0
            while let digit = reader.digit() {
                if count < 9 { nanoseconds = nanoseconds * 10 + Int64(digit) }
                count += 1
            }
            guard count > 0 else { return nil }
            for _ in min(count, 9)..<9 { nanoseconds *= 10 }
        }

        let offsetSeconds: Int64
        if reader.skip(either: "Z", "z") {
            offsetSeconds = 0
        } else if let sign = reader.sign(), let offsetHour = reader.digits(2), reader.skip(":"),
                  let offsetMinute = reader.digits(2), offsetHour <= 23, offsetMinute <= 59 {
            offsetSeconds = sign * Int64(offsetHour * 3600 + offsetMinute * 60)
        } else {
            return nil
        }
        guard reader.isAtEnd else { return nil }

        let days = daysSince1970(year: year, month: month, day: day)
        let local = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Instant(secondsSince1970: local - offsetSeconds, nanoseconds: Int32(nanoseconds))
    }

    private static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// A cursor over ASCII bytes; every read fails softly so the parser reads as a grammar.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func digit() -> Int? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return Int(bytes[index] - UInt8(ascii: "0"))
        }

        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func skip(either first: Unicode.Scalar, _ second: Unicode.Scalar) -> Bool {
            skip(first) || skip(second)
        }

        mutating func sign() -> Int64? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}
