import Foundation

/// A count or epoch timestamp that may arrive as a JSON integer, a numeric string or `null`. Decoded as
/// `Int64` first so nanosecond timestamps (about 1.7e18, above 2^53) never pass through `Double`
/// (reference §0). An integral number written with a fraction (`2868.0`) is accepted when it fits.
public struct FlexibleInt64: Decodable, Sendable, Hashable {
    public var value: Int64?

    public init(_ value: Int64?) {
        self.value = value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = nil
        } else if let integer = try? container.decode(Int64.self) {
            value = integer
        } else if let number = try? container.decode(Double.self) {
            guard let integer = Self.exactInteger(number) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(number) is not a whole number")
            }
            value = integer
        } else {
            let text = try container.decode(String.self).trimmingCharacters(in: .whitespaces)
            if text.isEmpty {
                value = nil
            } else if let integer = Int64(text) {
                value = integer
            } else if let integer = Double(text).flatMap(Self.exactInteger) {
                value = integer
            } else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text.prefix(24))' is not a whole number")
            }
        }
    }

    private static func exactInteger(_ number: Double) -> Int64? {
        guard number.isFinite, number == number.rounded(.towardZero) else { return nil }
        return Int64(exactly: number)
    }
}
