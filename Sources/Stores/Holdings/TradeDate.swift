import Foundation

/// A calendar day, `2024-03-15`, with no time and no time zone: the day a lot was traded, as a broker's
/// statement prints it. `Foundation.Date` would be an instant, and a lot bought on the 15th could read
/// as the 14th in another time zone.
public struct TradeDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A real day of the Gregorian calendar in years 1000…9999 (four digits), or nil: `2024-02-29` is one,
    /// `2023-02-29` and `2024-13-01` are not.
    public init?(year: Int, month: Int, day: Int) {
        guard (1000...9999).contains(year), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads exactly `YYYY-MM-DD` (ISO 8601's calendar date, the form spreadsheets export when asked):
    /// four digits, two, two, with hyphens. Nil for anything else, including a day that does not exist.
    public init?(parsing text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
              let day = Self.number(bytes[8..<10]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `date` falls on in `calendar`'s time zone (the user's, for "today").
    public init(_ date: Date, in calendar: Calendar) {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        // Gregorian components of a real instant are always a real day; clamp the year for the range.
        self.year = min(max(parts.year ?? 1970, 1000), 9999)
        self.month = parts.month ?? 1
        self.day = parts.day ?? 1
    }

    /// Whether a `YYYY-MM-DD` text is shaped right but names no such day (`2023-02-29`): the error then
    /// says "no such day" rather than "not YYYY-MM-DD".
    static func isShapedLikeDate(_ text: some StringProtocol) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 10 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
            && Self.number(bytes[0..<4]) != nil && Self.number(bytes[5..<7]) != nil && Self.number(bytes[8..<10]) != nil
    }

    public var description: String {
        String(year) + "-" + Self.twoDigits(month) + "-" + Self.twoDigits(day)
    }

    public static func < (lhs: TradeDate, rhs: TradeDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

extension TradeDate: Codable {
    /// Written as its `YYYY-MM-DD` text, the same form the CSV takes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = TradeDate(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a YYYY-MM-DD day")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
