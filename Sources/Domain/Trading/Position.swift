/// Shares of one symbol held at one broker, with what they cost and, given a price, what they are worth.
///
/// Signs: `quantity` is negative for a short position; `costBasis` is `quantity × averageCost`, so also
/// negative for a short, and `marketValue` is `quantity × lastPrice` (Alpaca and Tradier print shorts the
/// same way). Then `unrealizedPnL = marketValue − costBasis` is right for both: a short bought back
/// cheaper shows a gain.
public struct Position: Sendable, Hashable, Codable {
    /// The broker holding it (`ServiceBranding.id`).
    public var brokerID: String
    public var symbol: String
    public var quantity: ExactDecimal
    /// Per share, positive.
    public var averageCost: ExactDecimal
    public var costBasis: ExactDecimal
    public var lastPrice: ExactDecimal?
    public var marketValue: ExactDecimal?
    public var unrealizedPnL: ExactDecimal?
    /// `unrealizedPnL` in percent of the cost basis' magnitude: `12.5` means 12.5 %.
    public var unrealizedPnLPercent: ExactDecimal?
    /// Change in value since the previous close, where the broker sends it (Alpaca's `unrealized_intraday_pl`).
    public var todayPnL: ExactDecimal?
    /// Realized P&L of this symbol, where the broker or the paper account keeps it.
    public var realizedPnL: ExactDecimal?
    /// Which account at the broker, where one source holds several: the label of imported lots
    /// ("Fidelity IRA"). Nil for a broker's own positions. Text from a file: escape it to show it.
    public var account: String?

    public init(
        brokerID: String, symbol: String, quantity: ExactDecimal, averageCost: ExactDecimal,
        costBasis: ExactDecimal, lastPrice: ExactDecimal? = nil, marketValue: ExactDecimal? = nil,
        unrealizedPnL: ExactDecimal? = nil, unrealizedPnLPercent: ExactDecimal? = nil,
        todayPnL: ExactDecimal? = nil, realizedPnL: ExactDecimal? = nil, account: String? = nil
    ) {
        self.brokerID = brokerID
        self.symbol = symbol
        self.quantity = quantity
        self.averageCost = averageCost
        self.costBasis = costBasis
        self.lastPrice = lastPrice
        self.marketValue = marketValue
        self.unrealizedPnL = unrealizedPnL
        self.unrealizedPnLPercent = unrealizedPnLPercent
        self.todayPnL = todayPnL
        self.realizedPnL = realizedPnL
        self.account = account
    }

    public var isShort: Bool { quantity.isNegative }

    /// This position priced at `last`: market value, unrealized P&L and its percent (to 8 decimals, half
    /// to even), computed exactly from quantity and cost basis. `.overflow` for values beyond the range.
    public func valued(at last: ExactDecimal) throws(ExactDecimal.ArithmeticError) -> Position {
        var valued = self
        let value = try quantity.multiplied(by: last)
        let pnl = try value.subtracting(costBasis)
        valued.lastPrice = last
        valued.marketValue = value
        valued.unrealizedPnL = pnl
        valued.unrealizedPnLPercent = try Self.percent(pnl, of: costBasis)
        return valued
    }

    /// `part ÷ |whole| × 100` rounded once, half to even; nil for a zero whole. In `Int128` so a large P&L
    /// does not overflow on its way to a small percentage.
    static func percent(_ part: ExactDecimal, of whole: ExactDecimal) throws(ExactDecimal.ArithmeticError) -> ExactDecimal? {
        guard !whole.isZero else { return nil }
        let scaled = Int128(part.units) * 100 * Int128(ExactDecimal.unitsPerOne)
        guard let percent = ExactDecimal.inRange(ExactDecimal.divide(scaled, by: Int128(whole.magnitude.units), rule: .toNearestOrEven)) else {
            throw .overflow(expression: "\(part) ÷ \(whole.magnitude) × 100")
        }
        return percent
    }
}
