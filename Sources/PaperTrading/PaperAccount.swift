import Domain
import Foundation

/// The paper broker's book: cash, positions as FIFO lots, and what open orders have put on hold. Pure
/// state: the broker actor asks it whether to take an order (`accept`), tells it what filled (`apply`)
/// and what ended (`release`); replaying a journal through the same three calls rebuilds it exactly.
///
/// Money rules, all exact:
/// - A fill moves cash by `quantity × price` (out for a buy, in for a sell) and the commission out.
/// - Positions show their average cost; realized P&L counts closed shares first in, first out, before
///   commissions (`commissionsPaid` holds those), so cash always equals starting cash + realized P&L −
///   commissions − the cost basis of what is open.
/// - Buying power is cash, minus what open orders hold, minus twice the cost of open short positions:
///   a short sale's proceeds stay in cash but are held, with as much again of the account's own cash as
///   margin (a 100 % requirement, simpler and stricter than Reg T's 150 % including the proceeds). So
///   shorting $1,000 uses $1,000 of buying power, exactly like buying $1,000.
/// - Closing a short (buy to cover) is never refused for cash: it only lowers risk. If the short ran far
///   against you, cash can go below zero, as a margin account's would.
/// - A fill at a worse price than estimated is still applied: a hold is an estimate, not a reservation
///   of the exact amount.
///
/// Positions are kept by symbol, so a quote for one symbol values only that symbol's position.
public struct PaperAccount: Sendable {
    /// What the config says about the paper broker.
    public struct Configuration: Sendable, Hashable {
        public var startingCash: ExactDecimal
        public var commission: CommissionSchedule
        /// Allows `sellShort`; off unless the config turns it on.
        public var allowShort: Bool
        public var priceIncrement: PriceIncrement

        public init(
            startingCash: ExactDecimal, commission: CommissionSchedule = .free, allowShort: Bool = false,
            priceIncrement: PriceIncrement = .usEquities
        ) {
            self.startingCash = startingCash
            self.commission = commission
            self.allowShort = allowShort
            self.priceIncrement = priceIncrement
        }
    }

    /// What an open order keeps from being used twice: buying power for buys and short sales, shares for
    /// sells and covers.
    struct Hold: Sendable, Hashable {
        var symbol: String
        var side: OrderSide
        var buyingPower: ExactDecimal
        var shares: ExactDecimal
    }

    public let configuration: Configuration
    public private(set) var cash: ExactDecimal
    /// Commissions charged so far.
    public private(set) var commissionsPaid: ExactDecimal = 0
    /// Realized P&L of every symbol so far, before commissions.
    public private(set) var realizedPnL: ExactDecimal = 0
    private var lotsBySymbol: [String: PositionLots] = [:]
    private var holds: [OrderID: Hold] = [:]
    /// The sum of open orders' held buying power, kept with `holds`.
    private var heldBuyingPower: ExactDecimal = 0
    /// The sum of |cost basis| of short positions, kept as fills apply.
    private var shortCost: ExactDecimal = 0

    public init(configuration: Configuration) {
        self.configuration = configuration
        self.cash = configuration.startingCash
    }

    /// Cash free for new buys and short sales (see the type's comment).
    public var buyingPower: ExactDecimal {
        // Shorts beyond the range's half would overflow the doubling: then there is no buying power.
        (try? cash.subtracting(heldBuyingPower).subtracting(shortCost.multiplied(by: 2))) ?? -ExactDecimal.max
    }

    /// A symbol's lots and totals; nil when the account never traded it. Kept after the position closes,
    /// for its realized P&L.
    public func lots(for symbol: String) -> PositionLots? {
        lotsBySymbol[symbol]
    }

    /// Symbols the account has traded, sorted.
    public var symbols: [String] { lotsBySymbol.keys.sorted() }

    /// The commission the configured schedule charges for `quantity` shares.
    public func commission(for quantity: ExactDecimal) throws(ExactDecimal.ArithmeticError) -> ExactDecimal {
        try configuration.commission.commission(for: quantity)
    }

    /// `symbol`'s open position for the positions screen, valued at `last` when given; nil when flat or
    /// never traded. Touches only that symbol's totals.
    public func position(for symbol: String, brokerID: String, last: ExactDecimal?) throws(ExactDecimal.ArithmeticError) -> Position? {
        guard let lots = lotsBySymbol[symbol], !lots.isFlat else { return nil }
        let position = Position(
            brokerID: brokerID, symbol: symbol, quantity: lots.quantity, averageCost: lots.averageCost,
            costBasis: lots.costBasis, realizedPnL: lots.realizedPnL)
        guard let last else { return position }
        return try position.valued(at: last)
    }

    /// Every open position, sorted by symbol, each valued at `lastPrice(symbol)` when that has one.
    public func positions(brokerID: String, lastPrice: (String) -> ExactDecimal?) throws(ExactDecimal.ArithmeticError) -> [Position] {
        var positions: [Position] = []
        for symbol in symbols {
            if let position = try position(for: symbol, brokerID: brokerID, last: lastPrice(symbol)) {
                positions.append(position)
            }
        }
        return positions
    }

    // MARK: Orders

    /// Why the account would refuse `order` now, priced on `quote`; nil when it would take it. The ticket's
    /// preview asks this; `accept` asks it too before holding anything.
    public func validate(_ order: OrderRequest, quote: QuoteSnapshot) -> PaperRefusal? {
        switch hold(for: order, quote: quote) {
        case .success: nil
        case .failure(let refusal): refusal
        }
    }

    /// Takes `order` as open order `id` if the account can cover it, holding the buying power or shares
    /// it needs until `apply` fills it or `release` ends it; otherwise returns why not and changes nothing.
    /// Accepting under an id that already holds something replaces that hold (a replaced order), judged
    /// as if the old hold were gone.
    public mutating func accept(_ order: OrderRequest, id: OrderID, quote: QuoteSnapshot) -> PaperRefusal? {
        let previous = holds.removeValue(forKey: id)
        if let previous { heldBuyingPower -= previous.buyingPower }
        switch hold(for: order, quote: quote) {
        case .failure(let refusal):
            if let previous {
                holds[id] = previous
                heldBuyingPower += previous.buyingPower
            }
            return refusal
        case .success(let hold):
            holds[id] = hold
            // Cannot overflow: every hold fit the buying power when taken, so their sum is at most the cash.
            heldBuyingPower += hold.buyingPower
            return nil
        }
    }

    /// Lets go of what open order `id` held: it was cancelled, expired, rejected or replaced. Releasing an
    /// order that holds nothing does nothing.
    public mutating func release(_ id: OrderID) {
        // Most fills of a replay hold nothing (a market order filled on the next line never took its
        // hold): no need to hash the id.
        guard !holds.isEmpty, let hold = holds.removeValue(forKey: id) else { return }
        heldBuyingPower -= hold.buyingPower
    }

    /// Books `fill`: moves cash, updates the symbol's lots (realizing P&L on closed lots) and releases what
    /// its order held. Returns the P&L this fill realized, before commission. On `.overflow` nothing has
    /// changed.
    @discardableResult
    public mutating func apply(_ fill: Fill) throws(ExactDecimal.ArithmeticError) -> ExactDecimal {
        let buys = fill.side.isBuy
        let gross = try fill.grossValue()
        let newCash = try (buys ? cash.subtracting(gross) : cash.adding(gross)).subtracting(fill.commission)
        let newCommissions = try commissionsPaid.adding(fill.commission)
        // The lots are changed where they are stored, found once: taking them out and putting them back
        // hashed the symbol twice and copied their array at every fill of a replay.
        // (Read in a scope of its own, so no second reference to their array is alive when they change.)
        let slot = lotsBySymbol.index(forKey: fill.symbol)
        let change: PositionLots.Change
        let before: ExactDecimal
        do {
            let lots = slot.map { lotsBySymbol.values[$0] } ?? PositionLots(symbol: fill.symbol)
            change = try lots.change(buys: buys, quantity: fill.quantity, price: fill.price, at: fill.time)
            before = lots.quantity.isNegative ? lots.costBasis.magnitude : 0
        }
        let after = change.quantity.isNegative ? change.costBasis.magnitude : 0
        let newShortCost = try shortCost.subtracting(before).adding(after)
        let newRealized = try realizedPnL.adding(change.realized)

        cash = newCash
        commissionsPaid = newCommissions
        if let slot {
            lotsBySymbol.values[slot].commit(change)
        } else {
            var opened = PositionLots(symbol: fill.symbol)
            opened.commit(change)
            lotsBySymbol[fill.symbol] = opened
        }
        shortCost = newShortCost
        realizedPnL = newRealized
        release(fill.orderID)
        return change.realized
    }

    // MARK: Private

    /// What `order` would hold, or why it cannot be taken.
    private func hold(for order: OrderRequest, quote: QuoteSnapshot) -> Result<Hold, PaperRefusal> {
        guard order.quantity.isWholeNumber else { return .failure(.fractionalQuantity(order.quantity)) }
        let increment = configuration.priceIncrement
        for (field, price) in [("limit", order.type.limitPrice), ("stop", order.type.stopPrice)] {
            if let price, !increment.isValid(price) {
                return .failure(.offTick(field: field, price: price, tick: increment.tick(at: price)))
            }
        }
        let symbol = order.symbol
        let held = lotsBySymbol[symbol]?.quantity ?? 0
        let quantity = order.quantity
        do throws(ExactDecimal.ArithmeticError) {
            switch order.side {
            case .sell, .buyToCover:
                // Shares not yet promised to another open order on the same side.
                var promised: ExactDecimal = 0
                for hold in holds.values where hold.symbol == symbol && hold.side == order.side {
                    promised = try promised.adding(hold.shares)
                }
                let coverable = order.side == .sell ? held : -held
                let available = Swift.max(try coverable.subtracting(promised), 0)
                guard quantity <= available else {
                    return .failure(order.side == .sell
                        ? .insufficientShares(symbol: symbol, wanted: quantity, available: available)
                        : .insufficientShortPosition(symbol: symbol, wanted: quantity, available: available))
                }
                return .success(Hold(symbol: symbol, side: order.side, buyingPower: 0, shares: quantity))

            case .buy, .sellShort:
                if order.side == .buy, held.isNegative { return .failure(.holdsShort(symbol: symbol, quantity: held)) }
                if order.side == .sellShort {
                    guard configuration.allowShort else { return .failure(.shortingNotAllowed(symbol: symbol)) }
                    if held.isPositive { return .failure(.holdsLong(symbol: symbol, quantity: held)) }
                }
                guard let price = Self.estimatedPrice(of: order, quote: quote) else {
                    return .failure(.noPrice(symbol: symbol))
                }
                let needed = try quantity.multiplied(by: price).adding(commission(for: quantity))
                let available = buyingPower
                guard needed <= available else { return .failure(.insufficientBuyingPower(needed: needed, available: available)) }
                return .success(Hold(symbol: symbol, side: order.side, buyingPower: needed, shares: 0))
            }
        } catch {
            return .failure(.tooLarge(error))
        }
    }

    /// The price a buy or short sale is held at: the most it may pay (a buy) or the most it may be worth
    /// (a short sale, whose value is what it holds). A limit caps a buy; a stop buy pays at least its
    /// stop; a short sale is held at the higher of its own price and the bid.
    static func estimatedPrice(of order: OrderRequest, quote: QuoteSnapshot) -> ExactDecimal? {
        if order.side.isBuy {
            let market = quote.buyPrice?.price
            switch order.type {
            case .limit(let limit), .stopLimit(_, let limit): return limit
            case .market: return market
            case .stop(let stop): return Swift.max(stop, market ?? stop)
            }
        }
        let market = quote.sellPrice?.price
        let own = order.type.limitPrice ?? order.type.stopPrice
        switch (own, market) {
        case (let own?, let market?): return Swift.max(own, market)
        case (let own?, nil): return own
        case (nil, let market): return market
        }
    }
}
