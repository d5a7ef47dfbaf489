import Foundation

/// A price that may arrive as a JSON number, a numeric string or `null` (reference §0: Tradier's stream
/// and Coinbase send prices as strings, Tradier REST as numbers or `null`; Alpaca's trading API writes
/// money as strings). An empty string means no value.
/// Anything else, including `"NaN"` or `"inf"`, is a decoding error: a price must be finite.
public struct FlexibleDouble: Decodable, Sendable, Hashable {
    public var value: Double?

    public init(_ value: Double?) {
        self.value = value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = nil
        } else if let number = try? container.decode(Double.self) {
            value = number
        } else {
            let text = try container.decode(String.self).trimmingCharacters(in: .whitespaces)
            if text.isEmpty {
                value = nil
            } else if let number = Double(text), number.isFinite {
                value = number
            } else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text.prefix(24))' is not a number")
            }
        }
    }
}
