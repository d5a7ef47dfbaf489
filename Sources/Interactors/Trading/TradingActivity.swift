import Domain

/// Something a broker did to an order on its own: the paper broker filled it, expired it at the close.
public struct TradingActivity: Sendable, Hashable {
    public var brokerID: String
    public var order: Order

    public init(brokerID: String, order: Order) {
        self.brokerID = brokerID
        self.order = order
    }
}
