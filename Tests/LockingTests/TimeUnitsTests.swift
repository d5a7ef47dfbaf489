#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Locking
import Testing

struct TimeUnitsTests {
    @Test func wholeNanosecondsDropTheRemainderAndKeepTheSign() {
        #expect(Duration.seconds(3).wholeNanoseconds == 3_000_000_000)
        #expect((Duration.milliseconds(1_500) + .nanoseconds(7)).wholeNanoseconds == 1_500_000_007)
        // 1.9 ns: attoseconds below a nanosecond are dropped, not rounded.
        #expect(Duration(secondsComponent: 0, attosecondsComponent: 1_900_000_000).wholeNanoseconds == 1)
        #expect(Duration.milliseconds(-2).wholeNanoseconds == -2_000_000)
    }

    @Test func aTimespecSplitsSecondsAndNanosecondsAndIsZeroForAPassedDeadline() {
        let value = (Duration.seconds(2) + .nanoseconds(250_000_001)).timespecValue
        #expect(value.tv_sec == 2)
        #expect(value.tv_nsec == 250_000_001)
        let passed = Duration.milliseconds(-3).timespecValue
        #expect(passed.tv_sec == 0 && passed.tv_nsec == 0, "a negative timespec is EINVAL to ppoll and nanosleep")
        #expect(Duration.zero.timespecValue.tv_nsec == 0)
    }

    @Test func secondsAsADouble() {
        #expect(Duration.milliseconds(1_250).secondsValue == 1.25)
        #expect(Duration.seconds(-4).secondsValue == -4)
        // Rounded once: multiplied by 1e-18 (not exact in binary) this was 0.14500000000000002, and a
        // message rounding to hundredths said 0.15 s.
        #expect(Duration.milliseconds(145).secondsValue == 0.145)
    }

    @Test func anAtomicInstantIsNilUntilStoredThenGivesBackTheInstantToTheNanosecond() {
        let origin = ContinuousClock.now
        let instant = AtomicInstant(origin: origin)
        #expect(instant.load() == nil)
        instant.store(origin + .milliseconds(33) + .nanoseconds(5))
        #expect(instant.load() == origin + .milliseconds(33) + .nanoseconds(5))
        // Before the origin too: a frame counted from a due time earlier than the clock was made.
        instant.store(origin - .microseconds(10))
        #expect(instant.load() == origin - .microseconds(10))
        instant.store(origin)
        #expect(instant.load() == origin, "the origin itself is a value, not the empty mark")
    }
}
