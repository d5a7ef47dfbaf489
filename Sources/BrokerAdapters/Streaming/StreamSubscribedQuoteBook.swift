import Domain
import Foundation

/// `StreamQuoteBook` entries kept for the symbols a stream is subscribed to, for streams that name each
/// event by the hub's own symbol (Polygon, Alpaca). Events of other symbols are dropped, since an
/// unsubscribed symbol can still deliver a few buffered events; an unsubscribed symbol's merged quote is
/// forgotten, so a later subscription starts fresh.
///
/// A symbol is subscribed exactly when it has an entry: an event costs one lookup, not a set's and
/// then the book's.
struct StreamSubscribedQuoteBook: Sendable {
    private var entries: [String: StreamQuoteBook.Entry] = [:]

    var symbols: Set<String> { Set(entries.keys) }

    /// Subscribes `symbols`; returns those that were not subscribed yet.
    mutating func add(_ symbols: Set<String>) -> Set<String> {
        let added = symbols.filter { entries[$0] == nil }
        for symbol in added { entries[symbol] = StreamQuoteBook.Entry() }
        return added
    }

    /// Unsubscribes `symbols`; returns those that were subscribed.
    mutating func remove(_ symbols: Set<String>) -> Set<String> {
        symbols.filter { entries.removeValue(forKey: $0) != nil }
    }

    /// The merged quote to emit after a trade, if its symbol is subscribed and the book takes the price.
    /// (A quote, not an array of one action: this runs for every event, and an array is an allocation.)
    mutating func trade(_ symbol: String, price: ExactDecimal, at timestamp: Date) -> CommonQuote? {
        guard let index = entries.index(forKey: symbol) else { return nil }
        return StreamQuoteBook.trade(&entries.values[index], symbol, price: price, at: timestamp)
    }

    /// The merged quote to emit after a bid/ask update, if its symbol is subscribed and a `last` is known.
    mutating func quote(_ symbol: String, bid: ExactDecimal?, ask: ExactDecimal?, at timestamp: Date) -> CommonQuote? {
        guard let index = entries.index(forKey: symbol) else { return nil }
        return StreamQuoteBook.quote(&entries.values[index], symbol, bid: bid, ask: ask, at: timestamp)
    }
}
