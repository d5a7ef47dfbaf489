import TestSupport
import Testing
@testable import BrokerAdapters

@Suite(.timeLimit(.minutes(1))) struct RequestRateLimiterTests {
    typealias Schedule = RequestRateLimiter.Schedule

    /// Grant times in seconds for `count` single permits all asked for at `now`.
    func grants(_ schedule: inout Schedule, count: Int, at now: Duration = .zero) -> [Duration] {
        (0..<count).map { _ in schedule.reserve(1, at: now) }
    }

    @Test func withoutBurstRequestsAreSpacedEvenly() {
        var schedule = Schedule(requestsPerMinute: 60, burst: 1)
        #expect(grants(&schedule, count: 4) == [0, 1, 2, 3].map { Duration.seconds($0) })
    }

    @Test func aBurstGoesOutAtOnceThenTheRateHolds() {
        var schedule = Schedule(requestsPerMinute: 120, burst: 3)
        #expect(grants(&schedule, count: 6) == [0, 0, 0, 0.5, 1, 1.5].map { Duration.seconds($0) })
    }

    @Test func aQuietSpellRefillsOnlyUpToTheBurst() {
        var schedule = Schedule(requestsPerMinute: 60, burst: 2)
        _ = grants(&schedule, count: 2)
        #expect(grants(&schedule, count: 3, at: .seconds(100)) == [100, 100, 101].map { Duration.seconds($0) })
    }

    @Test func neverMoreThanTheLimitInAnyMinute() {
        // A plain bucket would let 3 + 5 - 1 = 7 through in the first minute.
        var schedule = Schedule(requestsPerMinute: 5, burst: 3)
        #expect(grants(&schedule, count: 7) == [0, 0, 0, 12, 24, 60, 60].map { Duration.seconds($0) })
        // The same over a long, busy run, checked against every window.
        var busy = Schedule(requestsPerMinute: 10, burst: 4)
        var times: [Duration] = []
        for step in 0..<200 { times.append(busy.reserve(1 + step % 3, at: .seconds(step / 2))) }
        var log: [Duration] = []
        for (step, time) in times.enumerated() { log += Array(repeating: time, count: 1 + step % 3) }
        for start in log {
            #expect(log.filter { $0 >= start && $0 < start + .seconds(60) }.count <= 10)
        }
        #expect(times == times.sorted())
    }

    @Test func severalPermitsAreGrantedTogether() {
        var schedule = Schedule(requestsPerMinute: 60, burst: 3)
        #expect(schedule.reserve(3, at: .zero) == .zero)
        #expect(schedule.reserve(1, at: .zero) == .seconds(1))
        // More than the burst waits for a full bucket and leaves it in debt.
        var greedy = Schedule(requestsPerMinute: 60, burst: 2)
        #expect(greedy.reserve(5, at: .zero) == .zero)
        #expect(greedy.reserve(1, at: .zero) == .seconds(4))
    }

    @Test func acquireWaitsOnTheClockInArrivalOrder() async throws {
        let clock = ManualClock()
        let limiter = RequestRateLimiter(requestsPerMinute: 30, burst: 1, clock: clock)
        try await limiter.acquire()
        let second = Task { try await limiter.acquire() }
        try #require(await clock.sleepers(atLeast: 1))
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(2))])
        let third = Task { try await limiter.acquire() }
        try #require(await clock.sleepers(atLeast: 2))
        #expect(clock.pendingDeadlines == [.seconds(2), .seconds(4)].map { ManualClock.Instant(offset: $0) })
        clock.advance(by: .seconds(2))
        try await second.value
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(4))])
        clock.advance(by: .seconds(2))
        try await third.value
    }

    @Test func aCancelledWaitThrowsCancellationError() async throws {
        let clock = ManualClock()
        let limiter = RequestRateLimiter(requestsPerMinute: 1, burst: 1, clock: clock)
        try await limiter.acquire()
        let waiting = Task { () async -> Bool in
            do {
                try await limiter.acquire()
                return false
            } catch {
                return true
            }
        }
        try #require(await clock.sleepers(atLeast: 1))
        waiting.cancel()
        #expect(await waiting.value)
        #expect(clock.pendingDeadlines.isEmpty)
    }
}
