import Domain
import Foundation

/// A `StreamQuoteBook` kept for the symbols a stream is subscribed to, for streams that name each event
/// by the hub's own symbol (Polygon, Alpaca). Events of other symbols are dropped, since an unsubscribed
/// symbol can still deliver a few buffered events; an unsubscribed symbol's merged quote is forgotten, so
/// a later subscription starts fresh.
struct StreamSubscribedQuoteBook: Sendable {
    private(set) var symbols: Set<String> = []
    private var book = StreamQuoteBook()

    /// Subscribes `symbols`; returns those that were not subscribed yet.
    mutating func add(_ symbols: Set<String>) -> Set<String> {
        let added = symbols.subtracting(self.symbols)
        self.symbols.formUnion(added)
        return added
    }

    /// Unsubscribes `symbols`; returns those that were subscribed.
    mutating func remove(_ symbols: Set<String>) -> Set<String> {
        let removed = symbols.intersection(self.symbols)
        self.symbols.subtract(removed)
        book.remove(removed)
        return removed
    }

    /// The merged quote to emit after a trade, if its symbol is subscribed and the book takes the price.
    /// (A quote, not an array of one action: this runs for every event, and an array is an allocation.)
    mutating func trade(_ symbol: String, price: ExactDecimal, at timestamp: Date) -> CommonQuote? {
        guard symbols.contains(symbol) else { return nil }
        return book.trade(symbol, price: price, at: timestamp)
    }

    /// The merged quote to emit after a bid/ask update, if its symbol is subscribed and a `last` is known.
    mutating func quote(_ symbol: String, bid: ExactDecimal?, ask: ExactDecimal?, at timestamp: Date) -> CommonQuote? {
        guard symbols.contains(symbol) else { return nil }
        return book.quote(symbol, bid: bid, ask: ask, at: timestamp)
    }
}
