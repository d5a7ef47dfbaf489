import Domain
import Foundation

/// The latest trade price and bid/ask per symbol of a stream that sends trades and quotes as separate
/// events (Polygon `T`/`Q`, Alpaca `t`/`q`), merged into one `CommonQuote` per event.
///
/// `last` is the latest trade price; before the first trade it is the mid of the current bid and ask
/// (exact, to 8 decimals half to even), and with a one-sided book it stays at the previous `last`. A
/// price of zero or less means "no bid" or "no ask" on these feeds, so it clears that side instead of
/// dragging the mid.
struct StreamQuoteBook: Sendable {
    private struct Entry: Sendable {
        var tradePrice: ExactDecimal?
        var bid: ExactDecimal?
        var ask: ExactDecimal?
        var last: ExactDecimal?
    }

    private var entries: [String: Entry] = [:]

    /// The merged quote after a trade.
    /// (Each event changes its entry in place: one hash of the symbol, not a read and a write.)
    mutating func trade(_ symbol: String, price: ExactDecimal, at timestamp: Date) -> CommonQuote? {
        guard price.isPositive else { return nil }
        return Self.trade(&entries[symbol, default: Entry()], symbol, price: price, at: timestamp)
    }

    private static func trade(_ entry: inout Entry, _ symbol: String, price: ExactDecimal, at timestamp: Date) -> CommonQuote {
        entry.tradePrice = price
        entry.last = price
        return CommonQuote(symbol: symbol, last: price, timestamp: timestamp, bid: entry.bid, ask: entry.ask)
    }

    /// The merged quote after a bid/ask update; nil while nothing is known to show as `last`.
    mutating func quote(_ symbol: String, bid: ExactDecimal?, ask: ExactDecimal?, at timestamp: Date) -> CommonQuote? {
        Self.quote(&entries[symbol, default: Entry()], symbol, bid: bid, ask: ask, at: timestamp)
    }

    private static func quote(
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

    /// Forgets symbols no longer subscribed, so a later subscription starts fresh.
    mutating func remove<S: Sequence<String>>(_ symbols: S) {
        for symbol in symbols { entries[symbol] = nil }
    }
}
