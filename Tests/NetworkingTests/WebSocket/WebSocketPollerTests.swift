#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Networking
import Testing

/// The I/O thread's wait: a paced read must wake at its slot, not at the next whole millisecond.
@Suite struct WebSocketPollerTests {
    let now = ContinuousClock.now

    @Test func noDeadlineWaitsWithoutEnd() {
        #expect(WebSocketPoller.timeout(until: nil, now: now) == nil)
    }

    @Test func aDeadlineThatPassedDoesNotWait() throws {
        for deadline in [now, now - .microseconds(1), now - .seconds(3)] {
            let timeout = try #require(WebSocketPoller.timeout(until: deadline, now: now))
            #expect(timeout.tv_sec == 0 && timeout.tv_nsec == 0)
        }
    }

    @Test(arguments: [
        (Duration.microseconds(400), 0, 400_000),
        (Duration.nanoseconds(1_500_001), 0, 1_500_001),
        (Duration.milliseconds(2_250), 2, 250_000_000),
    ])
    func aFutureDeadlineIsKeptToTheNanosecond(left: Duration, seconds: Int, nanoseconds: Int) throws {
        let timeout = try #require(WebSocketPoller.timeout(until: now + left, now: now))
        #expect(timeout.tv_sec == seconds && timeout.tv_nsec == nanoseconds)
    }

    @Test func pollsMillisecondsAreRoundedUpWhereThereIsNoPpoll() {
        #expect(WebSocketPoller.timeoutMilliseconds(until: .now + .microseconds(400)) == 1)
        #expect(WebSocketPoller.timeoutMilliseconds(until: nil) == -1)
    }
}
