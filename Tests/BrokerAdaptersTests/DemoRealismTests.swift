import Domain
import Foundation
import Testing
@testable import BrokerAdapters

/// What makes the demo look like a market (issue 12, item 13): realistic levels for well-known symbols,
/// each broker's own volume, and outages of the flaky broker that are seen within the first minute.
@Suite struct DemoRealismTests {
    /// The demo's default tick and stale threshold (AppConfig.DemoSection's defaults; checked against
    /// each other in CommonBrokerAppTests' DemoDefaultsTests).
    static let tickSeconds = 0.5
    static let demoStaleAfterSeconds = 5.0
    let origins = [3_500_000_000, 3_528_123_457, 3_600_000_001]

    @Test(arguments: ["MSFT", "META", "INTC", "AAPL", "NVDA", "^GSPC", "^DJI", "SPY"])
    func wellKnownSymbolsStartNearTheirRealLevels(symbol: String) throws {
        let level = try #require(DemoReferenceLevels.levels[symbol])
        for seed in UInt64(0)..<20 {
            for tick in origins {
                let first = DemoMarket.quote(symbol: symbol, profile: .alpha, tick: tick, seed: seed, timestamp: Date()).last
                // The model's level is a `Double`; compare in the model's own cents.
                let cents = DemoMarket.priceCents(symbol: symbol, brokerID: DemoBrokerProfile.alpha.branding.id, priceBias: 0, tick: tick, seed: seed)
                #expect(first.units == cents * 1_000_000)
                #expect(abs(Double(cents) / 100 / level - 1) < 0.2, "\(symbol) at \(first), reference \(level) (seed \(seed), tick \(tick))")
            }
        }
    }

    @Test func theTableHoldsAboutFortyTickersAndTheMainIndexes() {
        #expect(DemoReferenceLevels.levels.count >= 40)
        for index in ["^GSPC", "^DJI", "^IXIC"] { #expect(DemoReferenceLevels.levels[index] != nil) }
        #expect(DemoReferenceLevels.levels.values.allSatisfy { $0 > 0 })
    }

    @Test func eachBrokerHasItsOwnVolume() throws {
        for symbol in ["AAPL", "MSFT", "S17"] {
            let tick = DemoMarket.dayStart(of: origins[0]) + 5_000
            let volumes = try DemoBrokerProfile.all.map {
                try #require(DemoMarket.quote(symbol: symbol, profile: $0, tick: tick, seed: 42, timestamp: Date()).volume)
            }
            #expect(Set(volumes).count == 3, "\(symbol): \(volumes)")
            #expect(volumes.allSatisfy { $0 > 0 })
        }
    }

    @Test func gammasFirstOutageComesWithinAMinuteAndOutlastsTheStaleThreshold() throws {
        let plan = try #require(DemoBrokerProfile.gamma.outages)
        for seed in UInt64(0)..<50 {
            for origin in origins {
                let outages = DemoOutageSchedule(plan: plan, brokerID: DemoBrokerCatalog.gamma.id, originTick: origin, seed: seed)
                let first = outages.outage(0)
                let startsAfter = Double(first.lowerBound - origin) * Self.tickSeconds
                let lasts = Double(first.count) * Self.tickSeconds
                #expect(startsAfter > 0 && startsAfter <= 60, "first outage after \(startsAfter) s")
                #expect(lasts > Self.demoStaleAfterSeconds, "first outage lasts \(lasts) s")
                #expect(startsAfter + Self.demoStaleAfterSeconds < 60, "the stale mark shows within the first minute")
            }
        }
    }

    @Test func outagesFollowOneAnotherAndAreSeeded() throws {
        let plan = try #require(DemoBrokerProfile.gamma.outages)
        let outages = DemoOutageSchedule(plan: plan, brokerID: DemoBrokerCatalog.gamma.id, originTick: 1_000, seed: 42)
        let first20 = (0..<20).map { outages.outage($0) }
        for (earlier, later) in zip(first20, first20.dropFirst()) {
            #expect(plan.upTicks.contains(later.lowerBound - earlier.upperBound))
        }
        #expect(first20.allSatisfy { plan.downTicks.contains($0.count) })
        #expect(Set(first20.map(\.count)).count > 3, "outages differ in length")
        // Every tick is either in the outage `outage(endingAfter:)` finds or before it.
        for tick in 1_000..<(first20[19].upperBound) {
            let found = outages.outage(endingAfter: tick)
            #expect(found.upperBound > tick)
            #expect(outages.isDown(at: tick) == found.contains(tick))
            #expect(first20.contains(found))
        }
        let again = DemoOutageSchedule(plan: plan, brokerID: DemoBrokerCatalog.gamma.id, originTick: 1_000, seed: 42)
        #expect((0..<20).map { again.outage($0) } == first20)
        let otherSeed = DemoOutageSchedule(plan: plan, brokerID: DemoBrokerCatalog.gamma.id, originTick: 1_000, seed: 43)
        #expect((0..<20).map { otherSeed.outage($0) } != first20)
    }
}
