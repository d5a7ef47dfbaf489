/// A broker's id for one execution (Alpaca's activity `id`, the paper ledger's own), so a fill seen twice
/// is recognised as the same fill. Opaque outside text: escape it before showing it.
public struct FillID: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}
