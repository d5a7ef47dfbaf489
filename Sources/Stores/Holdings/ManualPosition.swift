import Domain

/// What the lots of one symbol held at one place add up to: see `ManualHoldingsBook.positions()` for how.
public struct ManualPosition: Sendable, Hashable {
    /// The lots' broker label; nil for lots without one.
    public var brokerLabel: String?
    public var symbol: String
    /// Shares held, negative when short.
    public var quantity: ExactDecimal
    /// What the open shares cost, fees included: negative when short (what the sale brought in, less fees).
    public var costBasis: ExactDecimal
    /// `costBasis ÷ quantity` to 8 decimals, half to even: per share, fees included.
    public var averageCost: ExactDecimal
    /// Gains and losses of the shares sold (or bought back), their fees included.
    public var realizedPnL: ExactDecimal
    /// How many lots made it, sold ones included.
    public var lotCount: Int

    public init(
        brokerLabel: String?, symbol: String, quantity: ExactDecimal, costBasis: ExactDecimal,
        averageCost: ExactDecimal, realizedPnL: ExactDecimal, lotCount: Int
    ) {
        self.brokerLabel = brokerLabel
        self.symbol = symbol
        self.quantity = quantity
        self.costBasis = costBasis
        self.averageCost = averageCost
        self.realizedPnL = realizedPnL
        self.lotCount = lotCount
    }

    /// As the positions screen takes it, under `brokerID` (`ManualHoldings.branding.id`, "manual"), the
    /// broker label as the position's account.
    public func position(brokerID: String) -> Position {
        Position(
            brokerID: brokerID, symbol: symbol, quantity: quantity, averageCost: averageCost,
            costBasis: costBasis, realizedPnL: realizedPnL, account: brokerLabel)
    }
}
