import Domain
import Foundation
import Testing
@testable import TerminalUI

@Suite struct QuoteFormattingTests {
    let now = Date(timeIntervalSince1970: 1_763_900_000)

    @Test func prices() {
        #expect(QuoteFormatting.price(exactDecimal("189.84")) == "189.84")
        #expect(QuoteFormatting.price(exactDecimal("189.845")) == "189.85", "half away from zero")
        #expect(QuoteFormatting.price(exactDecimal("189.835")) == "189.84")
        #expect(QuoteFormatting.price(exactDecimal("189.84499999")) == "189.84")
        #expect(QuoteFormatting.price(exactDecimal("0.4321")) == "0.4321")
        #expect(QuoteFormatting.price(exactDecimal("0.00005")) == "0.0001")
        #expect(QuoteFormatting.price(exactDecimal("-0.5")) == "-0.5000")
        #expect(QuoteFormatting.price(0) == "0.00")
        #expect(QuoteFormatting.price(1) == "1.00")
        #expect(QuoteFormatting.price(.max) == "90000000000.00")
    }

    @Test func changesAreSignedUnlessZero() {
        #expect(QuoteFormatting.change(exactDecimal("2.34")) == "+2.34")
        #expect(QuoteFormatting.change(exactDecimal("-3.385")) == "-3.39", "an exact half goes away from zero")
        #expect(QuoteFormatting.change(exactDecimal("-0.001")) == "0.00")
        #expect(QuoteFormatting.change(exactDecimal("0.0012"), decimals: 4) == "+0.0012")
        #expect(QuoteFormatting.percent(exactDecimal("1.2479")) == "+1.25%")
        #expect(QuoteFormatting.percent(exactDecimal("1.245")) == "+1.25%")
        #expect(QuoteFormatting.percent(exactDecimal("1.24499999")) == "+1.24%")
        #expect(QuoteFormatting.percent(exactDecimal("-0.83")) == "-0.83%")
        #expect(QuoteFormatting.percent(0) == "0.00%")
    }

    @Test(arguments: [
        ("17798.36", "17,798.36"), ("-1250", "-1,250.00"), ("1234567.891", "1,234,567.89"), ("0", "0.00"),
        ("999.995", "1,000.00"), ("-999.995", "-1,000.00"), ("131056.816", "131,056.82"), ("0.125", "0.13"),
        ("-0.004", "0.00"), ("100", "100.00"), ("90000000000", "90,000,000,000.00"), ("0.1", "0.10"),
    ])
    func moneyIsGroupedToTheCentHalfAwayFromZero(_ text: String, _ shown: String) {
        #expect(QuoteFormatting.money(exactDecimal(text)) == shown)
    }

    @Test func ages() {
        #expect(QuoteFormatting.age(since: now.addingTimeInterval(-3.9), now: now) == "3s")
        #expect(QuoteFormatting.age(since: now.addingTimeInterval(-125), now: now) == "2m")
        #expect(QuoteFormatting.age(since: now.addingTimeInterval(-3_600), now: now) == "1h")
        #expect(QuoteFormatting.age(since: now.addingTimeInterval(-200_000), now: now) == "2d")
        #expect(QuoteFormatting.age(since: now.addingTimeInterval(30), now: now) == "0s")
        #expect(QuoteFormatting.age(since: nil, now: now) == "—")
    }

    @Test func volumes() {
        #expect(QuoteFormatting.volume(950) == "950")
        #expect(QuoteFormatting.volume(12_345) == "12.3K")
        #expect(QuoteFormatting.volume(1_234_567) == "1.2M")
        #expect(QuoteFormatting.volume(240_100_000) == "240M")
        #expect(QuoteFormatting.volume(999_950) == "1.0M")
        #expect(QuoteFormatting.volume(3_400_000_000) == "3.4B")
        #expect(QuoteFormatting.volume(-1) == "—")
    }
}

@Suite struct FixedDecimalsTests {
    /// The cell formatter (integers, right to left) agrees with `ExactDecimal`'s own rounding, half away
    /// from zero, across magnitudes, signs and places; unlike a money column it keeps the minus of a
    /// negative value that rounds to zero.
    @Test func agreesWithTheDecimalsOwnRounding() {
        var generator = SplitMix64(seed: 20261123)
        for _ in 0..<5_000 {
            let digits = Int(generator.next() % 19) + 1
            var magnitude: Int64 = 1
            for _ in 1..<digits { magnitude *= 10 }
            let units = Int64(generator.next() % UInt64(min(magnitude, 9_000_000_000_000_000_000))) * (generator.next() % 2 == 0 ? 1 : -1)
            let value = ExactDecimal(units: units)
            for places in 0...8 {
                var expected = value.formatted(fractionDigits: places, rule: .toNearestOrAwayFromZero)
                if value.isNegative && !expected.hasPrefix("-") { expected = "-" + expected }
                #expect(QuoteFormatting.fixed(value, decimals: places) == expected, "\(value) with \(places) places")
            }
        }
    }

    @Test func edgeCases() {
        #expect(QuoteFormatting.fixed(0, decimals: 2) == "0.00")
        #expect(QuoteFormatting.fixed(exactDecimal("0.005"), decimals: 4) == "0.0050")
        #expect(QuoteFormatting.fixed(exactDecimal("189.845"), decimals: 0) == "190")
        #expect(QuoteFormatting.fixed(exactDecimal("-3.4"), decimals: 2) == "-3.40")
        #expect(QuoteFormatting.fixed(exactDecimal("-0.004"), decimals: 2) == "-0.00")
        #expect(QuoteFormatting.fixed(exactDecimal("0.00000001"), decimals: 8) == "0.00000001")
        #expect(QuoteFormatting.fixed(.max, decimals: 2) == "90000000000.00")
        #expect(QuoteFormatting.fixed(-.max, decimals: 8) == "-90000000000.00000000")
    }
}
