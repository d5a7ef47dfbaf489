import Domain
import Foundation
import Locking
import PaperTrading

/// A market feed the test drives by hand, with the real one's contract: the first batch of a
/// subscription and a newly followed symbol replay what the feed has cached; a subscriber receives only
/// the symbols it follows. `send` returns once every subscriber that follows the quote's symbol has
/// processed it (asked for its next batch), so a test can look at the broker right after, no sleeps.
final class FakeMarketFeed: MarketFeed, Sendable {
    let brokers: [ServiceBranding]
    private struct State {
        var cache: [QuoteKey: CommonQuote] = [:]
        var subscribers: [FakeFeedSubscriber] = []
        var followWaiters: [(symbol: String, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    init(brokers: [ServiceBranding] = [FakeMarketFeed.source, FakeMarketFeed.other]) {
        self.brokers = brokers
    }

    /// The paper broker's default source, and another broker whose quotes it must ignore.
    static let source = ServiceBranding(id: PaperSettings.defaultSourceBrokerID, name: "Alpha Demo", glyph: "α", color: .cyan)
    static let other = ServiceBranding(id: "demo-beta", name: "Beta Demo", glyph: "β", color: .magenta)

    /// Symbols each subscriber follows now.
    var followedSymbols: [Set<String>] {
        state.withLock { $0.subscribers.filter { !$0.isEnded }.map(\.symbols) }
    }

    func subscribe(symbols: Set<String>) async -> MarketFeedSubscription {
        let subscriber = FakeFeedSubscriber(symbols: symbols)
        let replay = state.withLock { state -> MarketUpdate in
            state.subscribers.append(subscriber)
            return MarketUpdate(quotes: state.cache.filter { symbols.contains($0.key.symbol) })
        }
        if !replay.quotes.isEmpty { _ = subscriber.deliver(replay) }
        return MarketFeedSubscription(
            updates: MarketUpdates(source: subscriber),
            setSymbols: { [self] symbols in
                let added = subscriber.follow(symbols)
                let (replay, followers) = state.withLock { state in
                    let followers = state.followWaiters.filter { symbols.contains($0.symbol) }.map(\.continuation)
                    state.followWaiters.removeAll { symbols.contains($0.symbol) }
                    return (MarketUpdate(quotes: state.cache.filter { added.contains($0.key.symbol) }), followers)
                }
                if !replay.quotes.isEmpty { _ = subscriber.deliver(replay) }
                followers.forEach { $0.resume() }
            },
            cancel: { subscriber.end() })
    }

    func refresh(_ symbols: Set<String>) async {}

    /// Returns once a subscriber follows `symbol`.
    func waitUntilFollowed(_ symbol: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let followed = state.withLock { state -> Bool in
                if state.subscribers.contains(where: { !$0.isEnded && $0.symbols.contains(symbol) }) { return true }
                state.followWaiters.append((symbol, continuation))
                return false
            }
            if followed { continuation.resume() }
        }
    }

    /// Keeps `quote` as the latest from `broker` without sending it: what a subscription replays.
    func cache(_ quote: CommonQuote, from broker: String = FakeMarketFeed.source.id) {
        state.withLock { $0.cache[QuoteKey(brandID: broker, symbol: quote.symbol)] = quote }
    }

    /// Sends `quotes` from `broker` to every subscriber that follows their symbols and waits until each
    /// has processed them.
    func send(_ quotes: [CommonQuote], from broker: String = FakeMarketFeed.source.id) async {
        let subscribers = state.withLock { state -> [FakeFeedSubscriber] in
            for quote in quotes { state.cache[QuoteKey(brandID: broker, symbol: quote.symbol)] = quote }
            return state.subscribers
        }
        for subscriber in subscribers {
            let followed = quotes.filter { subscriber.symbols.contains($0.symbol) }
            guard !followed.isEmpty else { continue }
            let update = MarketUpdate(quotes: Dictionary(
                followed.map { (QuoteKey(brandID: broker, symbol: $0.symbol), $0) }, uniquingKeysWith: { $1 }))
            let ticket = subscriber.deliver(update)
            await subscriber.processed(ticket)
        }
    }

    func send(_ quote: CommonQuote, from broker: String = FakeMarketFeed.source.id) async {
        await send([quote], from: broker)
    }
}

/// One subscription's mailbox: every batch in order (no conflation), counted, so the feed can wait
/// until the subscriber is done with one.
final class FakeFeedSubscriber: MarketUpdateSource, Sendable {
    private struct State {
        var symbols: Set<String>
        var pending: [MarketUpdate] = []
        var consumer: CheckedContinuation<MarketUpdate?, Never>?
        /// Batches handed out so far, and of those the ones the subscriber has finished with.
        var enqueued = 0
        var taken = 0
        var finished = 0
        var waiters: [(ticket: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var ended = false
    }

    private let state: Locked<State>

    init(symbols: Set<String>) {
        state = Locked(State(symbols: symbols))
    }

    var symbols: Set<String> { state.withLock { $0.symbols } }
    var isEnded: Bool { state.withLock { $0.ended } }

    /// Follows `symbols` from now on; returns those newly followed.
    func follow(_ symbols: Set<String>) -> Set<String> {
        state.withLock { state in
            defer { state.symbols = symbols }
            return symbols.subtracting(state.symbols)
        }
    }

    /// Queues `update`; returns its ticket for `processed`.
    func deliver(_ update: MarketUpdate) -> Int {
        let (ticket, consumer) = state.withLock { state -> (Int, CheckedContinuation<MarketUpdate?, Never>?) in
            state.enqueued += 1
            if state.ended {
                state.finished = state.enqueued
                return (state.enqueued, nil)
            }
            if let consumer = state.consumer {
                state.consumer = nil
                state.taken += 1
                return (state.enqueued, consumer)
            }
            state.pending.append(update)
            return (state.enqueued, nil)
        }
        consumer?.resume(returning: update)
        return ticket
    }

    /// Returns once the subscriber has finished with batch `ticket` (or the subscription ended).
    func processed(_ ticket: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.finished >= ticket || state.ended { return true }
                state.waiters.append((ticket, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }

    func end() {
        let (consumer, waiters) = state.withLock { state in
            state.ended = true
            defer {
                state.consumer = nil
                state.waiters = []
            }
            return (state.consumer, state.waiters)
        }
        consumer?.resume(returning: nil)
        waiters.forEach { $0.continuation.resume() }
    }

    func nextUpdate(isolation actor: isolated (any Actor)?) async -> MarketUpdate? {
        // Asking for the next batch means every batch taken so far has been processed.
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.finished = state.taken
            let ready = state.waiters.filter { $0.ticket <= state.finished }.map(\.continuation)
            state.waiters.removeAll { $0.ticket <= state.finished }
            return ready
        }
        ready.forEach { $0.resume() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<MarketUpdate?, Never>) in
                enum Next { case update(MarketUpdate), ended, wait }
                let next = state.withLock { state -> Next in
                    if !state.pending.isEmpty {
                        state.taken += 1
                        return .update(state.pending.removeFirst())
                    }
                    if state.ended { return .ended }
                    state.consumer = continuation
                    return .wait
                }
                switch next {
                case .update(let update): continuation.resume(returning: update)
                case .ended: continuation.resume(returning: nil)
                case .wait: break
                }
            }
        } onCancel: {
            end()
        }
    }
}
