import Domain
import Stores
import TerminalKit

/// The orders screen (`O`): open orders first, then filled, cancelled, expired and rejected ones, newest
/// first, across every trading broker. `c` cancels the selected open order after asking.
public struct OrdersScreen: Sendable, Hashable {
    /// Index into `rows(of:)`.
    public private(set) var selected: Int = 0
    /// Asking before this order is cancelled.
    public private(set) var confirmingCancel: OrderRow?

    public init(selected: Int = 0) {
        self.selected = selected
    }

    /// An order and the broker that holds it.
    public struct OrderRow: Sendable, Hashable {
        public var brokerID: String
        public var order: Order
    }

    public static func rows(of portfolio: PortfolioStore) -> [OrderRow] {
        let all = portfolio.brokers.flatMap { broker in broker.orders.map { OrderRow(brokerID: broker.branding.id, order: $0) } }
        return all.sorted { lhs, rhs in
            if lhs.order.status.isOpen != rhs.order.status.isOpen { return lhs.order.status.isOpen }
            if lhs.order.updatedAt != rhs.order.updatedAt { return lhs.order.updatedAt > rhs.order.updatedAt }
            return lhs.order.id.rawValue < rhs.order.id.rawValue
        }
    }

    public enum Action: Sendable, Hashable {
        case move(by: Int)
        case close
        case cancelSelected
        case confirmCancel, keepOrder
        case refresh
        case showPositions
    }

    public func action(for key: KeyPress) -> Action? {
        if confirmingCancel != nil {
            switch key {
            case .character("y"), .character("Y"): return .confirmCancel
            case .character("n"), .character("N"), .escape: return .keepOrder
            default: return nil
            }
        }
        switch key {
        case .character("j"), .down: return .move(by: 1)
        case .character("k"), .up: return .move(by: -1)
        case .escape, .character("q"), .character("O"): return .close
        case .character("c"): return .cancelSelected
        case .character("r"): return .refresh
        case .character("P"): return .showPositions
        default: return nil
        }
    }

    public mutating func update(_ action: Action, rows: [OrderRow]) -> [ScreenRequest] {
        selected = min(max(0, selected), max(0, rows.count - 1))
        switch action {
        case .move(let offset):
            selected = min(max(0, selected + offset), max(0, rows.count - 1))
        case .close:
            return [.close]
        case .cancelSelected:
            guard rows.indices.contains(selected) else { return [.say(.info, "No order to cancel")] }
            guard rows[selected].order.status.isOpen else {
                return [.say(.info, "Only an open order can be cancelled; this one is \(rows[selected].order.status.name)")]
            }
            confirmingCancel = rows[selected]
        case .confirmCancel:
            guard let row = confirmingCancel else { return [] }
            confirmingCancel = nil
            return [.effect(.cancelOrder(brokerID: row.brokerID, row.order.id)), .say(.info, "Cancelling \(OrderTicket.describe(row.order.request))…")]
        case .keepOrder:
            confirmingCancel = nil
        case .refresh:
            return [.effect(.fetchPortfolio), .say(.info, "Asking every trading broker for positions, orders and balances")]
        case .showPositions:
            return [.open(.positions(PositionsScreen()))]
        }
        return []
    }
}
