import Foundation
import TextSafety

extension ExactDecimal: Codable {
    /// Decodes a JSON string (`"150.25"`, the form `encode(to:)` writes and Alpaca sends) or a JSON
    /// number (`150.25`, as Tradier sends). A number is read as `Foundation.Decimal`, which Foundation's
    /// JSONDecoder builds from the number's digits, never through `Double`, so `0.1`,
    /// `123456789.12345678` and `1e-8` arrive exactly (tested); its plain-notation description is then
    /// parsed like any text. `Decimal` holds 38 significant digits: a number with more (never seen from a
    /// broker) is rounded there first. Only this decoding path touches `Decimal`; arithmetic never does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text: String
        if let string = try? container.decode(String.self) {
            text = string
        } else if let number = try? container.decode(Decimal.self), number.isFinite {
            text = number.description
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a decimal number or a string holding one")
        }
        guard let value = ExactDecimal(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\"\(VisibleText.escaped(String(text.prefix(40))))\" is not a decimal within ±90000000000 (digits, optional . and fraction, optional exponent)")
        }
        self = value
    }

    /// Encodes as a JSON string such as `"150.25"`, so a journal read back by any JSON reader stays exact.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
