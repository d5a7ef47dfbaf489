import Foundation

/// A number that arrives as a JSON number, a numeric string (Alpaca's trading API writes money as
/// strings) or `null`. Private to the Alpaca adapter until it is merged with the shared `FlexibleDouble`
/// in `Wire/`.
struct AlpacaFlexibleDouble: Decodable, Sendable, Hashable {
    let value: Double?

    init(_ value: Double?) { self.value = value }

    init(from decoder: any Decoder) throws {
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
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a number: \(text.prefix(20))")
            }
        }
    }
}
