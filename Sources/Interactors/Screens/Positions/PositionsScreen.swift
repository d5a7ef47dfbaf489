import Domain
import Stores
import TerminalKit

/// The positions screen (`P`): every position at every trading broker with live P&L, a totals row and
/// each account's cash, equity and buying power. `B` / `S` open the ticket on the selected position.
public struct PositionsScreen: Sendable, Hashable {
    /// Index into `rows(of:)`.
    public private(set) var selected: Int = 0

    public init(selected: Int = 0) {
        self.selected = selected
    }

    /// Positions in display order: broker by broker as configured, symbols alphabetically.
    public static func rows(of portfolio: PortfolioStore) -> [Position] {
        portfolio.brokers.flatMap { $0.positions.sorted { $0.symbol < $1.symbol } }
    }

    public enum Action: Sendable, Hashable {
        case move(by: Int)
        case close
        case trade(OrderSide)
        case refresh
        case showOrders
    }

    public func action(for key: KeyPress) -> Action? {
        switch key {
        case .character("j"), .down: .move(by: 1)
        case .character("k"), .up: .move(by: -1)
        case .escape, .character("q"), .character("P"): .close
        case .character("B"): .trade(.buy)
        case .character("S"): .trade(.sell)
        case .character("r"): .refresh
        case .character("O"): .showOrders
        default: nil
        }
    }

    public mutating func update(_ action: Action, rows: [Position]) -> [ScreenRequest] {
        selected = min(max(0, selected), max(0, rows.count - 1))
        switch action {
        case .move(let offset):
            selected = min(max(0, selected + offset), max(0, rows.count - 1))
        case .close:
            return [.close]
        case .trade(let side):
            guard rows.indices.contains(selected) else { return [.say(.info, "No position selected: B and S on the watchlist open a ticket for any row")] }
            let position = rows[selected]
            // Selling a long or covering a short starts with the whole position.
            let closes = position.isShort ? side.isBuy : !side.isBuy
            let sideForPosition: OrderSide = position.isShort ? (side.isBuy ? .buyToCover : .sellShort) : side
            return [.openTicket(
                symbol: position.symbol, side: sideForPosition, brokerID: position.brokerID,
                quantity: closes ? position.quantity.magnitude.description : "")]
        case .refresh:
            return [.effect(.fetchPortfolio), .say(.info, "Asking every trading broker for positions, orders and balances")]
        case .showOrders:
            return [.open(.orders(OrdersScreen()))]
        }
        return []
    }
}
