import Domain
import Foundation

/// The latest trade price and bid/ask per symbol of a stream that sends trades and quotes as separate
/// events (Polygon `T`/`Q`, Alpaca `t`/`q`, Tradier `trade`/`quote`), merged into one `CommonQuote` per
/// event.
///
/// `last` is the latest trade price; before the first trade it is the mid of the current bid and ask
/// (exact, to 8 decimals half to even), and with a one-sided book it stays at the previous `last`. A
/// price of zero or less means "no bid" or "no ask" on these feeds, so it clears that side instead of
/// dragging the mid.
///
/// The rules work on one symbol's `Entry`, so a machine that keeps more per symbol (Tradier's hub
/// spellings, close and volume) holds the entry beside the rest and finds all of it with one lookup
/// per event: a lookup hashes the symbol, and three of them were a tenth of Tradier's cost per event.
enum StreamQuoteBook {
    /// One symbol's prices so far; a new symbol starts from `Entry()`.
    struct Entry: Sendable {
        var tradePrice: ExactDecimal?
        var bid: ExactDecimal?
        var ask: ExactDecimal?
        var last: ExactDecimal?
    }

    /// The merged quote after a trade; nil for a price of zero or less, which changes nothing.
    static func trade(_ entry: inout Entry, _ symbol: String, price: ExactDecimal, at timestamp: Date) -> CommonQuote? {
        guard price.isPositive else { return nil }
        entry.tradePrice = price
        entry.last = price
        return CommonQuote(symbol: symbol, last: price, timestamp: timestamp, bid: entry.bid, ask: entry.ask)
    }

    /// The merged quote after a bid/ask update; nil while nothing is known to show as `last`.
    static func quote(
        _ entry: inout Entry, _ symbol: String, bid: ExactDecimal?, ask: ExactDecimal?, at timestamp: Date
    ) -> CommonQuote? {
        entry.bid = bid.flatMap { $0.isPositive ? $0 : nil }
        entry.ask = ask.flatMap { $0.isPositive ? $0 : nil }
        if entry.tradePrice == nil, let bid = entry.bid, let ask = entry.ask {
            entry.last = .midpoint(bid, ask)
        }
        guard let last = entry.last else { return nil }
        return CommonQuote(symbol: symbol, last: last, timestamp: timestamp, bid: entry.bid, ask: entry.ask)
    }
}
