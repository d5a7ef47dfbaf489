import Domain
import Foundation
import Locking

/// One polling "connection": a loop that asks `PollingState` what to do, waits on the clock or the rate
/// limiter, calls `quotes(for:)` and yields what the state makes of the answer. All decisions are the
/// state's; this only executes them. Without a `rateLimiter` the service paces its own requests (a broker
/// built with its `BrokerRequestGate`).
enum PollingQuoteStreamSession {
    /// `wallClock` dates the session's clock, for the times `.retrying` names.
    static func open(
        service: any QuoteService, settings: PollingSettings, rateLimiter: RequestRateLimiter?, clock: ElapsedClock,
        wallClock: Date
    ) -> DrivenQuoteStreamSession<Connection> {
        // The wall-clock time of the session clock's present, so offsets on it can be dated.
        let epoch = wallClock.addingTimeInterval(-clock.now().secondsValue)
        return DrivenQuoteStreamSession(
            connect: { continuation in Connection(state: PollingState(settings: settings, epoch: epoch), continuation: continuation) },
            drive: { connection in await run(connection, service: service, rateLimiter: rateLimiter, clock: clock) }
        )
    }

    private static func run(
        _ connection: Connection, service: any QuoteService, rateLimiter: RequestRateLimiter?, clock: ElapsedClock
    ) async {
        while !Task.isCancelled {
            switch connection.nextStep(now: clock.now()) {
            case .finished:
                return
            case .idle:
                await connection.wake.wait()
            case .sleep(let deadline):
                await connection.sleep(until: deadline, on: clock)
            case .poll(let batch):
                do {
                    try await rateLimiter?.acquire()
                } catch {
                    return
                }
                let symbols = connection.stillDue(batch)
                guard !symbols.isEmpty else { continue }
                let answer: PollingState.Answer
                do {
                    answer = .success(try await service.quotes(for: symbols))
                } catch {
                    answer = .failure(error)
                }
                // Closed while the request was out: its answer belongs to nobody.
                guard !Task.isCancelled else { return }
                guard connection.answered(symbols, with: answer, at: clock.now()) else { return }
            }
        }
    }

    /// The state and the stream's continuation, shared by the session's methods and its loop.
    final class Connection: DrivenQuoteStreamConnection {
        let wake = WakeSignal()
        private let state: Locked<PollingState>
        private let continuation: QuoteEvents.Continuation

        init(state: PollingState, continuation: QuoteEvents.Continuation) {
            self.state = Locked(state)
            self.continuation = continuation
        }

        /// Signalling under the state lock, like `nextStep`'s reset, makes each change either seen by the
        /// loop's next decision or announced to its next wait, never both (no spurious wake-ups) nor neither.
        func subscribe(_ symbols: Set<String>) {
            state.withLock { state in
                if state.subscribe(symbols) { wake.signal() }
            }
        }

        func unsubscribe(_ symbols: Set<String>) {
            state.withLock { $0.unsubscribe(symbols) }
        }

        func close() {
            state.withLock { $0.close() }
            continuation.finish()
            wake.signal()
        }

        func nextStep(now: Duration) -> PollingState.Step {
            state.withLock { state in
                wake.reset()
                return state.nextStep(now: now)
            }
        }

        func stillDue(_ symbols: [String]) -> [String] {
            state.withLock { $0.stillDue(symbols) }
        }

        /// Yields what the answer produces; false once the stream is over. Yielding under the lock keeps
        /// events in the order the state produced them, even against a concurrent close.
        func answered(_ symbols: [String], with answer: PollingState.Answer, at now: Duration) -> Bool {
            state.withLock { state in
                switch state.pollAnswered(symbols, with: answer, at: now) {
                case .emit(let events):
                    for event in events { continuation.yield(event) }
                    return !state.isFinished
                case .finish(let error):
                    continuation.finish(throwing: error)
                    return false
                }
            }
        }

        /// Sleeps until `deadline` or until a subscription wakes the loop, whichever comes first.
        func sleep(until deadline: Duration, on clock: ElapsedClock) async {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await clock.sleep(until: deadline) }
                group.addTask { await self.wake.wait() }
                await group.next()
                group.cancelAll()
            }
        }
    }
}
