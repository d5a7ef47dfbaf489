/// The broker's id for an order (Alpaca's UUID `id`, Tradier's numeric `id` as text, the paper broker's
/// own). Opaque: compared, stored and sent back, never parsed. It is outside text: escape it before
/// showing it.
public struct OrderID: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}
