import Foundation

/// An id that arrives as a JSON integer (Tradier's order and position ids, `228175`) or a string (Alpaca's
/// UUIDs), kept as text: ids are compared and sent back, never computed with.
public struct FlexibleIdentifier: Decodable, Sendable, Hashable {
    public var text: String

    public init(_ text: String) {
        self.text = text
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            text = String(integer)
        } else {
            text = try container.decode(String.self)
        }
    }
}
