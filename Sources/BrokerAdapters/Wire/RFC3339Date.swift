import Foundation

/// A wire field holding an RFC 3339 string, decoded with `RFC3339`; anything else is a decoding error
/// naming the field.
public struct RFC3339Date: Decodable, Sendable, Hashable {
    public var instant: RFC3339.Instant
    public var date: Date { instant.date }

    public init(_ instant: RFC3339.Instant) {
        self.instant = instant
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let instant = RFC3339.instant(from: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text.prefix(40))' is not an RFC 3339 date-time")
        }
        self.instant = instant
    }
}
