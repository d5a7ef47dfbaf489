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

    /// The exact prices of a `CommonQuote`, whose fields are still `Double`: each goes through its shortest
    /// decimal text (`ExactDecimal(approximating:)`), which gives back the decimal the wire sent. Nil when
    /// `last` cannot be held (NaN, beyond the range); a side that cannot be held is left out.
    public init?(_ quote: CommonQuote) {
        guard let last = ExactDecimal(approximating: quote.last) else { return nil }
        self.init(
            bid: quote.bid.flatMap(ExactDecimal.init(approximating:)),
            ask: quote.ask.flatMap(ExactDecimal.init(approximating:)),
            last: last, time: quote.timestamp)
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
