import Domain
import Locking
import Testing
import TestSupport
@testable import BrokerAdapters

/// The pause rules as a value, and the gate that every request of one broker goes through.
@Suite(.timeLimit(.minutes(1))) struct BrokerRequestGateTests {
    @Test func aNamedRetryAfterPausesUntilThenAndALaterOneIsKept() {
        var pause = RequestPause(initialWait: .seconds(1), maximumWait: .seconds(60))
        #expect(pause.remaining(at: .zero) == nil)
        #expect(pause.rateLimited(retryAfter: 36, at: .seconds(24)) == .seconds(60))
        #expect(pause.remaining(at: .seconds(36)) == .seconds(24))
        #expect(pause.remaining(at: .seconds(48)) == .seconds(12))
        // An earlier end named later does not shorten the pause.
        #expect(pause.rateLimited(retryAfter: 5, at: .seconds(30)) == .seconds(60))
        #expect(pause.remaining(at: .seconds(60)) == nil)
    }

    @Test func aRateLimitWithoutATimeBacksOffDoublingUntilAnotherAnswer() {
        var pause = RequestPause(initialWait: .seconds(1), maximumWait: .seconds(5))
        #expect(pause.rateLimited(retryAfter: nil, at: .zero) == .seconds(1))
        #expect(pause.rateLimited(retryAfter: nil, at: .seconds(1)) == .seconds(3))
        #expect(pause.rateLimited(retryAfter: 0, at: .seconds(3)) == .seconds(7))
        #expect(pause.rateLimited(retryAfter: .infinity, at: .seconds(7)) == .seconds(12))
        pause.answered()
        #expect(pause.rateLimited(retryAfter: nil, at: .seconds(20)) == .seconds(21))
        // Absurd values are capped at an hour.
        #expect(pause.rateLimited(retryAfter: 1e9, at: .seconds(21)) == .seconds(3621))
    }

    /// Counts the requests that reach the broker and answers each with the next scripted result.
    final class Broker: Sendable {
        private let script: Locked<[Result<Int, BrokerError>]>
        private let sent = Locked(0)

        init(_ script: [Result<Int, BrokerError>]) { self.script = Locked(script) }

        var requests: Int { sent.withLock { $0 } }

        func request() throws(BrokerError) -> Int {
            sent.withLock { $0 += 1 }
            return try script.withLock { $0.isEmpty ? .success(0) : $0.removeFirst() }.get()
        }
    }

    func outcome(_ gate: BrokerRequestGate, _ broker: Broker) async -> Result<Int, BrokerError> {
        do throws(BrokerError) {
            return .success(try await gate.perform { () throws(BrokerError) in try broker.request() })
        } catch {
            return .failure(error)
        }
    }

    @Test func aRateLimitPausesEveryCallerUntilTheNamedTime() async {
        let clock = ManualClock()
        let gate = BrokerRequestGate(clock: clock)
        let broker = Broker([.failure(.rateLimited(retryAfter: 36))])
        #expect(await outcome(gate, broker) == .failure(.rateLimited(retryAfter: 36)))
        clock.advance(by: .seconds(12))
        // Refused without a request, with the time left.
        #expect(await outcome(gate, broker) == .failure(.rateLimited(retryAfter: 24)))
        #expect(broker.requests == 1)
        clock.advance(by: .seconds(24))
        #expect(await outcome(gate, broker) == .success(0))
        #expect(broker.requests == 2)
    }

    @Test func anUnnamedRateLimitIsRethrownWithThePausesLength() async {
        let clock = ManualClock()
        let gate = BrokerRequestGate(clock: clock, unnamedRateLimitWait: .seconds(2))
        let broker = Broker([.failure(.rateLimited(retryAfter: nil))])
        #expect(await outcome(gate, broker) == .failure(.rateLimited(retryAfter: 2)))
        #expect(gate.pausedFor == .seconds(2))
    }

    /// A caller waiting for its permit when another caller's 429 arrives does not go out: the pause is
    /// checked again after the wait.
    @Test func aCallerWaitingForAPermitIsRefusedWhenAPauseBeganMeanwhile() async throws {
        let clock = ManualClock()
        let gate = BrokerRequestGate(rateLimiter: RequestRateLimiter(requestsPerMinute: 1, burst: 1, clock: clock), clock: clock)
        let broker = Broker([])
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let (answers, answer) = AsyncStream.makeStream(of: BrokerError.self)
        @Sendable func call(_ hold: Bool) async -> BrokerError? {
            do throws(BrokerError) {
                try await gate.perform { () async throws(BrokerError) in
                    _ = try broker.request()
                    guard hold else { return }
                    start.yield()
                    for await error in answers { throw error }
                }
                return nil
            } catch {
                return error
            }
        }
        let first = Task { await call(true) }
        for await _ in started { break }
        let second = Task { await call(false) }
        // The second waits for the next permit, at 60 s, while the first is still out.
        try #require(await clock.sleepers(atLeast: 1))
        answer.yield(.rateLimited(retryAfter: 120))
        #expect(await first.value == .rateLimited(retryAfter: 120))
        clock.advance(by: .seconds(60))
        #expect(await second.value == .rateLimited(retryAfter: 60))
        #expect(broker.requests == 1)
    }

    @Test func cancelledWhileWaitingForAPermitIsCancelled() async throws {
        let clock = ManualClock()
        let gate = BrokerRequestGate(rateLimiter: RequestRateLimiter(requestsPerMinute: 1, burst: 1, clock: clock), clock: clock)
        let broker = Broker([])
        #expect(await outcome(gate, broker) == .success(0))
        let waiting = Task { await outcome(gate, broker) }
        try #require(await clock.sleepers(atLeast: 1))
        waiting.cancel()
        #expect(await waiting.value == .failure(.cancelled))
        #expect(broker.requests == 1)
    }
}
