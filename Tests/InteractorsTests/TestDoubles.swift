import Domain
import Foundation
import Interactors
import Locking
import Stores
import TestSupport

let alpha = ServiceBranding(id: "alpha", name: "Alpha", glyph: "a", color: .cyan)
let beta = ServiceBranding(id: "beta", name: "Beta", glyph: "b", color: .magenta)
let t0 = Date(timeIntervalSince1970: 1_763_900_000)

func quote(_ symbol: String, _ last: ExactDecimal, close: ExactDecimal? = 100, at time: Date = t0) -> CommonQuote {
    CommonQuote(symbol: symbol, last: last, timestamp: time, previousClose: close)
}

/// A MarketFeed the test drives by hand; records what the interactor asks of it.
final class ManualFeed: MarketFeed, Sendable {
    let brokers: [ServiceBranding]
    private let state = Locked<(symbols: [Set<String>], continuation: AsyncStream<MarketUpdate>.Continuation?, cancelled: Bool, refreshed: [Set<String>])>(([], nil, false, []))

    init(brokers: [ServiceBranding]) { self.brokers = brokers }

    func subscribe(symbols: Set<String>) async -> MarketFeedSubscription {
        let (stream, continuation) = AsyncStream<MarketUpdate>.makeStream()
        state.withLock {
            $0.symbols.append(symbols)
            $0.continuation = continuation
        }
        return MarketFeedSubscription(
            updates: stream,
            setSymbols: { symbols in self.state.withLock { $0.symbols.append(symbols) } },
            cancel: {
                self.state.withLock {
                    $0.cancelled = true
                    $0.continuation?.finish()
                }
            }
        )
    }

    func refresh(_ symbols: Set<String>) async {
        state.withLock { $0.refreshed.append(symbols) }
    }

    var followed: [Set<String>] { state.withLock { $0.symbols } }
    /// What the runtime asked snapshots of, in order.
    var refreshed: [Set<String>] { state.withLock { $0.refreshed } }
    var cancelled: Bool { state.withLock { $0.cancelled } }
    func send(_ update: MarketUpdate) { _ = state.withLock { $0.continuation?.yield(update) } }
}

/// Collects published view states so tests can wait for one that matches.
final class Published: Sendable {
    private let states = Locked<[WatchlistViewState]>([])
    private let changed = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

    var publish: @Sendable (WatchlistViewState) -> Void {
        { state in
            self.states.withLock { $0.append(state) }
            self.changed.continuation.yield()
        }
    }

    var latest: WatchlistViewState? { states.withLock { $0.last } }
    var all: [WatchlistViewState] { states.withLock { $0 } }

    /// Waits (bounded by `timeout`, scaled by `TestTime`) for a published state satisfying `condition`;
    /// returns it or nil on timeout.
    func first(timeout: Duration = .seconds(30), where condition: @escaping @Sendable (WatchlistViewState) -> Bool) async -> WatchlistViewState? {
        let deadline = ContinuousClock.now + TestTime.scaled(timeout)
        while ContinuousClock.now < deadline {
            if let match = states.withLock({ $0.first(where: condition) }) { return match }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }
}

/// A runtime over `feed` and `watchlist`, with the state a real run would start from.
func makeRuntime(
    feed: any MarketFeed, accountServices: [any AccountService] = [],
    watchlist: WatchlistStore, isDemo: Bool, now: @escaping @Sendable () -> Date,
    quit: @escaping @Sendable () -> Void = {}, publish: @escaping @Sendable (WatchlistViewState) -> Void
) -> AppRuntime {
    let state = AppState(
        brokers: feed.brokers, book: watchlist.book,
        settings: AppState.Settings(
            isDemo: isDemo, isSaved: watchlist.file != nil, accountBrokers: accountServices.map(\.branding)))
    return AppRuntime(
        live: LiveAppState(state), feed: feed, accountServices: accountServices,
        watchlist: watchlist, now: now, quit: quit, publish: publish)
}

/// Counts calls, e.g. of the runtime's quit.
final class CallCounter: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    func call() { count.withLock { $0 += 1 } }
}
