@testable import Networking
import Testing

/// Reconnect backoff and keepalive as values: time is an argument, so nothing here waits.
@Suite struct NATSTimingTests {
    @Test func backoffStartsAtOnceThenDoublesToItsMaximumLessJitter() {
        let backoff = NATSReconnectBackoff(initial: .milliseconds(100), maximum: .seconds(1), jitter: 0.5)
        #expect((1...7).map { backoff.delay(beforeAttempt: $0, unit: 0) } == [
            .zero, .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1),
        ])
        #expect(backoff.delay(beforeAttempt: 3, unit: 0.5) == .milliseconds(150))
        #expect(backoff.delay(beforeAttempt: 1_000_000, unit: 0.999_999) > .milliseconds(500))
        #expect(NATSReconnectBackoff(initial: .seconds(2), maximum: .seconds(1), jitter: 7).maximum == .seconds(2))
    }

    @Test func keepalivePingsEveryIntervalAndGoesStaleWhenPingsGoUnanswered() {
        var keepalive = NATSKeepalive(interval: .seconds(10), maxOutstanding: 2, now: .zero)
        #expect(keepalive.nextDeadline == .seconds(10))
        #expect(keepalive.action(at: .seconds(9)) == .none)
        #expect(keepalive.action(at: .seconds(10)) == .sendPing)
        #expect(keepalive.action(at: .seconds(10)) == .none, "once per interval")
        keepalive.pongReceived()
        #expect(keepalive.action(at: .seconds(20)) == .sendPing)
        #expect(keepalive.action(at: .seconds(30)) == .sendPing)
        #expect(keepalive.outstanding == 2)
        #expect(keepalive.action(at: .seconds(40)) == .stale)

        var off = NATSKeepalive(interval: nil, maxOutstanding: 2, now: .zero)
        #expect(off.nextDeadline == nil)
        #expect(off.action(at: .seconds(1_000_000)) == .none)
    }
}
