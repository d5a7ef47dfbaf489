import Domain
import Foundation
import Testing
@testable import TerminalUI

@Suite struct QuoteFormattingTests {
    let now = Date(timeIntervalSince1970: 1_763_900_000)

    @Test func prices() {
        #expect(QuoteFormatting.price(189.84) == "189.84")
        #expect(QuoteFormatting.price(189.845001) == "189.85")
        #expect(QuoteFormatting.price(0.4321) == "0.4321")
        #expect(QuoteFormatting.price(0) == "0.00")
        #expect(QuoteFormatting.price(.nan) == "—")
        #expect(QuoteFormatting.price(.infinity) == "—")
    }

    @Test func changesAreSignedUnlessZero() {
        #expect(QuoteFormatting.change(2.34) == "+2.34")
        #expect(QuoteFormatting.change(-3.385) == "-3.38" || QuoteFormatting.change(-3.385) == "-3.39")
        #expect(QuoteFormatting.change(-0.001) == "0.00")
        #expect(QuoteFormatting.change(0.0012, decimals: 4) == "+0.0012")
        #expect(QuoteFormatting.percent(1.2479) == "+1.25%")
        #expect(QuoteFormatting.percent(-0.83) == "-0.83%")
        #expect(QuoteFormatting.percent(0) == "0.00%")
        #expect(QuoteFormatting.percent(.nan) == "—")
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
    /// The integer formatter agrees with printf across magnitudes, signs and places.
    @Test func agreesWithPrintf() {
        var generator = SplitMix64(seed: 20261123)
        for _ in 0..<5_000 {
            let magnitude = pow(10, Double.random(in: -5...9, using: &generator))
            let value = (Bool.random(using: &generator) ? -1 : 1) * magnitude
            for places in [0, 1, 2, 4] {
                let expected = String(format: "%.\(places)f", value)
                let actual = QuoteFormatting.fixed(value, decimals: places)
                // printf rounds the binary value half-to-even; ties are vanishingly rare in random doubles,
                // but allow a last-digit difference only on an exact tie.
                if actual != expected {
                    let scaled = abs(value) * pow(10, Double(places))
                    #expect(abs(scaled - scaled.rounded(.down) - 0.5) < 1e-9, "\(value) with \(places) places: \(actual) vs \(expected)")
                }
            }
        }
    }

    @Test func edgeCases() {
        #expect(QuoteFormatting.fixed(0, decimals: 2) == "0.00")
        #expect(QuoteFormatting.fixed(0.005, decimals: 4) == "0.0050")
        #expect(QuoteFormatting.fixed(189.845, decimals: 0) == "190")
        #expect(QuoteFormatting.fixed(-3.4, decimals: 2) == "-3.40")
        #expect(QuoteFormatting.fixed(.nan, decimals: 2) == "—")
        #expect(QuoteFormatting.fixed(1e17, decimals: 2) == "100000000000000000.00")
    }
}

