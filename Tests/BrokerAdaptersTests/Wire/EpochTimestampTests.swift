import BrokerAdapters
import Foundation
import Testing

@Suite struct EpochTimestampTests {
    @Test func everyUnitNamesTheSameInstant() {
        let expected = 1_731_528_912.441
        #expect(abs(EpochTimestamp.seconds.date(from: 1_731_528_912).timeIntervalSince1970 - 1_731_528_912) < 1e-9)
        #expect(abs(EpochTimestamp.milliseconds.date(from: 1_731_528_912_441).timeIntervalSince1970 - expected) < 1e-6)
        #expect(abs(EpochTimestamp.microseconds.date(from: 1_731_528_912_441_000).timeIntervalSince1970 - expected) < 1e-6)
        #expect(abs(EpochTimestamp.nanoseconds.date(from: 1_731_528_912_441_000_000).timeIntervalSince1970 - expected) < 1e-6)
    }

    /// Through a Double, 1731528912441123457 ns would already be off by about 200 ns before dividing.
    @Test func nanosecondsNearTheTopOfInt64() {
        let date = EpochTimestamp.nanoseconds.date(from: 1_731_528_912_441_123_457)
        #expect(abs(date.timeIntervalSince1970 - 1_731_528_912.441123457) < 1e-6)
        let max = EpochTimestamp.nanoseconds.date(from: Int64.max)
        #expect(abs(max.timeIntervalSince1970 - 9_223_372_036.854775807) < 1e-5)
        #expect(EpochTimestamp.nanoseconds.date(from: 1_731_528_912_441_123_457) < EpochTimestamp.nanoseconds.date(from: 1_731_528_912_441_124_457))
    }

    @Test func beforeNineteenSeventy() {
        #expect(EpochTimestamp.milliseconds.date(from: -1_500).timeIntervalSince1970 == -1.5)
        #expect(abs(EpochTimestamp.nanoseconds.date(from: -1_000_001).timeIntervalSince1970 + 0.001000001) < 1e-6)
        #expect(EpochTimestamp.seconds.date(from: 0) == Date(timeIntervalSince1970: 0))
    }
}
