import Domain
import Locking

/// The upstream both hubs read: a `QuoteEvents` sequence the producer thread feeds flat out or at a
/// steady rate, as a broker's socket reader would.
final class BenchQuoteSession: QuoteStreamSession {
    let events: QuoteEvents
    let feed: QuoteEvents.Continuation
    /// nil: unbounded (paced runs). A bound lets a flat-out producer see how far ahead of the hub it is.
    let capacity: Int?
    private let subscribed = Locked<Set<String>>([])

    init(capacity: Int?) {
        self.capacity = capacity
        (events, feed) = QuoteEvents.makeStream(
            bufferingPolicy: capacity.map { .bufferingOldest($0) } ?? .unbounded)
    }

    var subscribedSymbols: Set<String> { subscribed.withLock { $0 } }

    func subscribe(_ symbols: Set<String>) async { subscribed.withLock { $0.formUnion(symbols) } }
    func unsubscribe(_ symbols: Set<String>) async { subscribed.withLock { $0.subtract(symbols) } }
    func close() async { feed.finish() }
}
