import Domain
import Foundation

/// One symbol's position as FIFO lots, with its running totals: what the position screen shows for a
/// paper holding (average cost) and what realized P&L is counted on (first in, first out).
///
/// Totals are kept as the lots change, so valuing the position at a new price is two multiplications,
/// never a walk over the lots.
public struct PositionLots: Sendable, Equatable {
    public let symbol: String
    /// Shares, negative when short.
    public private(set) var quantity: ExactDecimal = 0
    /// The sum of the open lots' costs: negative when short.
    public private(set) var costBasis: ExactDecimal = 0
    /// Realized P&L of every closed share, before commissions.
    public private(set) var realizedPnL: ExactDecimal = 0
    /// Lots oldest first; `lots[head...]` are open. Closed lots are dropped from the front in batches, so
    /// a long history of small fills closes each lot in constant time.
    private var lots: [Lot] = []
    private var head = 0

    init(symbol: String) {
        self.symbol = symbol
    }

    /// Open lots, oldest first.
    public var openLots: ArraySlice<Lot> { lots[head...] }

    public var isFlat: Bool { quantity.isZero }

    /// Cost per share of the open lots, positive, rounded half to even to 8 decimals; zero when flat.
    public var averageCost: ExactDecimal {
        guard !quantity.isZero else { return 0 }
        // |costBasis| ≤ |quantity| × the highest lot price, so the quotient is in range.
        return (try? costBasis.divided(by: quantity)) ?? 0
    }

    /// Unrealized P&L at `last`: what the open lots are worth minus what they cost.
    public func unrealizedPnL(at last: ExactDecimal) throws(ExactDecimal.ArithmeticError) -> ExactDecimal {
        try quantity.multiplied(by: last).subtracting(costBasis)
    }

    /// Adds a fill of `quantity` shares (positive) bought (`buys`) or sold at `price`: it first closes
    /// opposite lots, oldest first, realizing their P&L, then opens a lot with what is left. Returns the P&L
    /// this fill realized. On `.overflow` nothing has changed: every sum is worked out before the first
    /// write (and without copying the lots).
    mutating func apply(
        buys: Bool, quantity fillQuantity: ExactDecimal, price: ExactDecimal, at time: Date
    ) throws(ExactDecimal.ArithmeticError) -> ExactDecimal {
        let change = try change(buys: buys, quantity: fillQuantity, price: price, at: time)
        commit(change)
        return change.realized
    }

    /// What `apply` would do, worked out without changing anything, so a caller with sums of its own to
    /// check can do so before the lots change (`PaperAccount.apply`), then `commit` it.
    struct Change {
        /// The P&L the fill realizes.
        var realized: ExactDecimal
        var quantity, costBasis, realizedPnL: ExactDecimal
        /// Lots closed whole, from `head`.
        fileprivate var closedLots: Int
        /// What is left of the first lot not closed whole.
        fileprivate var partlyClosed: Lot?
        fileprivate var opened: Lot?
    }

    func change(
        buys: Bool, quantity fillQuantity: ExactDecimal, price: ExactDecimal, at time: Date
    ) throws(ExactDecimal.ArithmeticError) -> Change {
        var remaining = fillQuantity.magnitude
        var realized: ExactDecimal = 0
        var newQuantity = quantity, newCostBasis = costBasis
        var closedLots = 0
        var partlyClosed: Lot?
        var index = head
        while remaining.isPositive, index < lots.count, lots[index].quantity.isNegative == buys {
            let lot = lots[index]
            let closing = Swift.min(remaining, lot.quantity.magnitude)
            let closingSigned = lot.quantity.isNegative ? -closing : closing
            let left = try Lot(quantity: lot.quantity.subtracting(closingSigned), price: lot.price, openedAt: lot.openedAt)
            // What the closed shares brought in (or cost to buy back) minus what they cost when opened.
            let closedCost = try lot.cost.subtracting(left.cost)
            realized = try realized.adding(try closingSigned.multiplied(by: price).subtracting(closedCost))
            newCostBasis = try newCostBasis.subtracting(closedCost)
            newQuantity = try newQuantity.subtracting(closingSigned)
            remaining = try remaining.subtracting(closing)
            if left.quantity.isZero {
                closedLots += 1
                index += 1
            } else {
                partlyClosed = left
            }
        }
        var opened: Lot?
        if remaining.isPositive {
            let lot = try Lot(quantity: buys ? remaining : -remaining, price: price, openedAt: time)
            newCostBasis = try newCostBasis.adding(lot.cost)
            newQuantity = try newQuantity.adding(lot.quantity)
            opened = lot
        }
        return Change(
            realized: realized, quantity: newQuantity, costBasis: newCostBasis, realizedPnL: try realizedPnL.adding(realized),
            closedLots: closedLots, partlyClosed: partlyClosed, opened: opened)
    }

    /// Makes `change`, worked out by `change(buys:quantity:price:at:)` on these lots as they are now.
    mutating func commit(_ change: Change) {
        head += change.closedLots
        if let partlyClosed = change.partlyClosed { lots[head] = partlyClosed }
        if let opened = change.opened { lots.append(opened) }
        quantity = change.quantity
        costBasis = change.costBasis
        realizedPnL = change.realizedPnL
        if head >= 32 && head * 2 >= lots.count {
            lots.removeFirst(head)
            head = 0
        }
    }

    /// Equal when they hold the same open lots with the same totals, however many closed lots are still
    /// stored in front.
    public static func == (lhs: PositionLots, rhs: PositionLots) -> Bool {
        lhs.symbol == rhs.symbol && lhs.quantity == rhs.quantity && lhs.costBasis == rhs.costBasis
            && lhs.realizedPnL == rhs.realizedPnL && lhs.openLots.elementsEqual(rhs.openLots)
    }
}
