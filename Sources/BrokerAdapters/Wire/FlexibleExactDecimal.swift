import Domain
import Foundation

/// A price or an amount of money that may arrive as a JSON number, a numeric string, an empty string or
/// `null`, read exactly (`ExactDecimal`: a string's digits, a number's digits through `Foundation.Decimal`,
/// never `Double`). Quote prices and account figures take this lenient form because brokers write them
/// both ways (Tradier REST as numbers or `null`, its stream and Alpaca's trading API as strings, reference
/// §0); an empty or null value is no value, and anything else that is not a decimal within
/// ±90,000,000,000 (`"NaN"`, `"inf"`, `"01"`, `"$5"`) is a decoding error.
public struct FlexibleExactDecimal: Decodable, Sendable, Hashable {
    public var value: ExactDecimal?

    public init(_ value: ExactDecimal?) {
        self.value = value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = nil
        } else if let text = try? container.decode(String.self) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                value = nil
            } else if let parsed = ExactDecimal(parsing: trimmed) {
                value = parsed
            } else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(trimmed.prefix(24))' is not a decimal amount")
            }
        } else {
            value = try container.decode(ExactDecimal.self)
        }
    }
}
