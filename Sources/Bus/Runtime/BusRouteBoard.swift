import Domain
import Locking

/// Each broker's route (direct, leader, follower of whom), as the bus sessions learn it, for the footer.
/// Sessions write it from their actors; the app reads the changes as a stream.
public final class BusRouteBoard: Sendable {
    private struct State {
        var routes: [String: QuoteRoute] = [:]
        var watchers: [Int: AsyncStream<(String, QuoteRoute)>.Continuation] = [:]
        var nextWatcher = 0
    }

    private let state = Locked(State())

    public init() {}

    public func set(_ route: QuoteRoute, for broker: String) {
        let watchers: [AsyncStream<(String, QuoteRoute)>.Continuation] = state.withLock { state in
            guard state.routes[broker] != route else { return [] }
            state.routes[broker] = route
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.yield((broker, route)) }
    }

    public func route(of broker: String) -> QuoteRoute? {
        state.withLock { $0.routes[broker] }
    }

    /// Every change from now on, after the routes already known.
    public func changes() -> AsyncStream<(String, QuoteRoute)> {
        let (stream, continuation) = AsyncStream.makeStream(of: (String, QuoteRoute).self, bufferingPolicy: .bufferingNewest(256))
        let id = state.withLock { state in
            let id = state.nextWatcher
            state.nextWatcher += 1
            state.watchers[id] = continuation
            for (broker, route) in state.routes.sorted(by: { $0.key < $1.key }) { continuation.yield((broker, route)) }
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }
}
