import Domain

/// Something a broker did on its own: the paper broker filled an order, expired one at the close, or has
/// something to say about its ledger.
public struct TradingActivity: Sendable, Hashable {
    public var brokerID: String
    public var change: Change

    public enum Change: Sendable, Hashable {
        /// An order changed: filled, cancelled, expired, rejected.
        case order(Order)
        /// For the status line (a torn last ledger line that was dropped).
        case notice(String)
        /// The broker stopped taking orders; the text says why and what to do.
        case halted(String)
    }

    public init(brokerID: String, change: Change) {
        self.brokerID = brokerID
        self.change = change
    }

    public init(brokerID: String, order: Order) {
        self.init(brokerID: brokerID, change: .order(order))
    }
}
