import Domain

/// The paper account's headline figures, exact.
public struct PaperAccountSummary: Sendable, Hashable {
    public var cash: ExactDecimal
    /// Cash plus the market value of every position (longs add, shorts subtract); a position whose
    /// symbol has no price yet counts at its cost.
    public var equity: ExactDecimal
    public var buyingPower: ExactDecimal
    /// Realized P&L of every closed lot, before commissions.
    public var realizedPnL: ExactDecimal
    /// Unrealized P&L of every open position that has a price.
    public var unrealizedPnL: ExactDecimal
    public var commissionsPaid: ExactDecimal
    public var startingCash: ExactDecimal

    public init(
        cash: ExactDecimal, equity: ExactDecimal, buyingPower: ExactDecimal, realizedPnL: ExactDecimal,
        unrealizedPnL: ExactDecimal, commissionsPaid: ExactDecimal, startingCash: ExactDecimal
    ) {
        self.cash = cash
        self.equity = equity
        self.buyingPower = buyingPower
        self.realizedPnL = realizedPnL
        self.unrealizedPnL = unrealizedPnL
        self.commissionsPaid = commissionsPaid
        self.startingCash = startingCash
    }
}
