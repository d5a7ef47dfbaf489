import Domain

/// What one trading broker answered: its positions, its orders and its accounts' balances.
public struct PortfolioSnapshot: Sendable, Hashable {
    public var positions: [Position]
    public var orders: [Order]
    public var balances: [AccountBalance]

    public init(positions: [Position] = [], orders: [Order] = [], balances: [AccountBalance] = []) {
        self.positions = positions
        self.orders = orders
        self.balances = balances
    }
}
