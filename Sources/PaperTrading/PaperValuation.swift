import Domain

/// The paper account's open positions valued at the source's last prices, kept per symbol with running
/// totals, so a new price revalues one position and adjusts two sums: the cost of a quote does not grow
/// with the number of positions.
public struct PaperValuation: Sendable {
    public let brokerID: String
    /// The source's last trade per symbol, as far as it has been told.
    public private(set) var lastPrices: [String: ExactDecimal] = [:]
    /// Open positions by symbol, valued where a last price is known.
    private var positions: [String: Position] = [:]
    /// Σ of each position's market value (its cost basis while it has no price), and Σ of the priced
    /// positions' unrealized P&L, in 10⁻⁸ units: `Int128` cannot overflow on a thousand positions of up
    /// to ±90 billion each, where `ExactDecimal` could.
    private var marketValueUnits: Int128 = 0
    private var unrealizedUnits: Int128 = 0

    public init(brokerID: String) {
        self.brokerID = brokerID
    }

    /// Every open position, sorted by symbol.
    public var allPositions: [Position] {
        positions.keys.sorted().compactMap { positions[$0] }
    }

    /// Symbols with an open position.
    public var heldSymbols: Set<String> { Set(positions.keys) }

    public func position(_ symbol: String) -> Position? {
        positions[symbol]
    }

    /// Notes `last` as `symbol`'s price and revalues that position only. Returns it (nil when flat). A
    /// price of zero or less (no trade yet) is no price.
    @discardableResult
    public mutating func price(_ symbol: String, last: ExactDecimal, account: PaperAccount) -> Position? {
        if last.isPositive { lastPrices[symbol] = last }
        return revalue(symbol, account: account)
    }

    /// Values `symbol`'s position anew from the account (after a fill) at its last known price.
    @discardableResult
    public mutating func revalue(_ symbol: String, account: PaperAccount) -> Position? {
        if let old = positions.removeValue(forKey: symbol) { add(old, sign: -1) }
        let last = lastPrices[symbol]
        let position: Position?
        do {
            position = try account.position(for: symbol, brokerID: brokerID, last: last)
        } catch {
            // Beyond the range when valued (an absurd price): shown at cost, unvalued, rather than wrong.
            position = try? account.position(for: symbol, brokerID: brokerID, last: nil)
        }
        guard let position else { return nil }
        positions[symbol] = position
        add(position, sign: 1)
        return position
    }

    /// Values every held symbol anew (after a replay or another instance's lines).
    public mutating func revalueAll(account: PaperAccount) {
        positions = [:]
        marketValueUnits = 0
        unrealizedUnits = 0
        for symbol in account.symbols { revalue(symbol, account: account) }
    }

    /// The account's headline figures with these valuations.
    public func summary(of account: PaperAccount) -> PaperAccountSummary {
        PaperAccountSummary(
            cash: account.cash,
            equity: Self.clamped(Int128(account.cash.units) + marketValueUnits),
            buyingPower: account.buyingPower,
            realizedPnL: account.realizedPnL,
            unrealizedPnL: Self.clamped(unrealizedUnits),
            commissionsPaid: account.commissionsPaid,
            startingCash: account.configuration.startingCash)
    }

    private mutating func add(_ position: Position, sign: Int128) {
        marketValueUnits += sign * Int128((position.marketValue ?? position.costBasis).units)
        if let pnl = position.unrealizedPnL { unrealizedUnits += sign * Int128(pnl.units) }
    }

    /// A total beyond ±90 billion shows as the limit: no account this program runs gets there.
    private static func clamped(_ units: Int128) -> ExactDecimal {
        let limit = Int128(ExactDecimal.max.units)
        return ExactDecimal(units: Int64(Swift.min(Swift.max(units, -limit), limit)))
    }
}
