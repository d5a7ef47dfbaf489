import Domain
import Foundation

/// The prices the fill rules look at, exact. A bid or ask of zero or less is stored as none: nobody can
/// trade at it, and a quote without a side falls back to the last trade.
public struct QuoteSnapshot: Sendable, Hashable {
    public let bid: ExactDecimal?
    public let ask: ExactDecimal?
    /// The last trade; zero when the source has seen none.
    public let last: ExactDecimal
    public let time: Date

    public init(bid: ExactDecimal?, ask: ExactDecimal?, last: ExactDecimal, time: Date) {
        self.bid = bid.flatMap { $0.isPositive ? $0 : nil }
        self.ask = ask.flatMap { $0.isPositive ? $0 : nil }
        self.last = last
        self.time = time
    }

    /// The prices of a `CommonQuote`, already exact as the broker sent them.
    public init(_ quote: CommonQuote) {
        self.init(bid: quote.bid, ask: quote.ask, last: quote.last, time: quote.timestamp)
    }

    /// What a buy pays now: the ask, else the last trade (nil when there is neither).
    var buyPrice: (price: ExactDecimal, source: FillPriceSource)? {
        if let ask { return (ask, .ask) }
        return last.isPositive ? (last, .lastTrade) : nil
    }

    /// What a sell gets now: the bid, else the last trade (nil when there is neither).
    var sellPrice: (price: ExactDecimal, source: FillPriceSource)? {
        if let bid { return (bid, .bid) }
        return last.isPositive ? (last, .lastTrade) : nil
    }
}
