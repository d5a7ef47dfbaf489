/// Our own id for an order, sent with it (Alpaca's `client_order_id`, Tradier's `tag`) so a retry after a
/// lost answer can be recognised instead of placed twice.
public struct ClientOrderID: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}
