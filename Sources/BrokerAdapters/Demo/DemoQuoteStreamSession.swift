import Domain
import Foundation
import Locking

/// A demo broker's stream connection. Emits `.live` at once, then on every market tick a quote for
/// each followed symbol that moved. Ticks are slept on the injected clock; the decisions are
/// `DemoStreamState`'s.
enum DemoQuoteStreamSession {
    /// The deadlines are counted from the clock's `now` at this call, so a clock that moves before the
    /// ticking task first runs still produces every tick.
    static func open<C: Clock<Duration>>(
        profile: DemoBrokerProfile, settings: DemoBrokerSettings, outages: DemoOutageSchedule?, startTick: Int,
        clock: C, now: @escaping @Sendable () -> Date
    ) -> DrivenQuoteStreamSession<Connection> {
        let interval = settings.effectiveTickInterval
        let state = DemoStreamState(profile: profile, seed: settings.seed, startTick: startTick, outages: outages)
        let start = clock.now
        return DrivenQuoteStreamSession(
            connect: { continuation in
                continuation.yield(.live)
                return Connection(state: state, continuation: continuation, now: now)
            },
            drive: { connection in await tick(connection, clock: clock, from: start, every: interval) }
        )
    }

    private static func tick<C: Clock<Duration>>(
        _ connection: Connection, clock: C, from start: C.Instant, every interval: Duration
    ) async {
        var next = 1
        while true {
            do {
                try await clock.sleep(until: start.advanced(by: interval * next), tolerance: nil)
            } catch {
                return
            }
            // After a stall (a suspended machine) go straight to the tick the clock is on instead of
            // replaying every missed tick in a burst.
            let onClock = Int((start.duration(to: clock.now) / interval).rounded(.down))
            let elapsed = max(next, onClock)
            guard connection.advance(toElapsed: elapsed) else { return }
            next = elapsed + 1
        }
    }

    /// The state and the stream's continuation, shared by the session and its ticking task. Events
    /// are yielded under the lock so subscribe's immediate quotes and tick quotes keep their order.
    final class Connection: DrivenQuoteStreamConnection {
        private let state: Locked<DemoStreamState>
        private let continuation: QuoteEvents.Continuation
        private let now: @Sendable () -> Date

        init(
            state: DemoStreamState, continuation: QuoteEvents.Continuation,
            now: @escaping @Sendable () -> Date
        ) {
            self.state = Locked(state)
            self.continuation = continuation
            self.now = now
        }

        func subscribe(_ symbols: Set<String>) {
            let timestamp = now()
            state.withLock { state in
                for event in state.subscribe(symbols, at: timestamp) { continuation.yield(event) }
            }
        }

        func unsubscribe(_ symbols: Set<String>) {
            state.withLock { $0.unsubscribe(symbols) }
        }

        /// Returns false once the connection is over and the ticking should stop.
        func advance(toElapsed elapsed: Int) -> Bool {
            let timestamp = now()
            let outcome = state.withLock { state in
                let outcome = state.advance(toElapsed: elapsed, at: timestamp)
                if case .events(let events) = outcome {
                    for event in events { continuation.yield(event) }
                }
                return outcome
            }
            switch outcome {
            case .events: return true
            case .drop(let error):
                continuation.finish(throwing: error)
                return false
            case .finished: return false
            }
        }

        func close() {
            state.withLock { $0.close() }
            continuation.finish()
        }
    }
}
