import Domain
import Foundation
import Testing
import TestSupport
@testable import BrokerAdapters

@Suite struct DemoMarketTests {
    let alpha = DemoBrokerCatalog.alpha.id
    let beta = DemoBrokerCatalog.beta.id

    @Test func sameSeedGivesTheSamePricesInEveryProcess() {
        // Pinned values: they only hold if nothing in the model depends on per-process hashing.
        #expect(DemoMarket.basePrice(symbol: "S1") == 8.9)
        #expect(DemoMarket.price(symbol: "S1", brokerID: alpha, priceBias: 0, tick: 3_500_000_000, seed: 42) == exactDecimal("8.54"))
        for tick in stride(from: -5_000, through: 5_000, by: 37) {
            #expect(
                DemoMarket.price(symbol: "MSFT", brokerID: beta, priceBias: 0.0004, tick: tick, seed: 7)
                    == DemoMarket.price(symbol: "MSFT", brokerID: beta, priceBias: 0.0004, tick: tick, seed: 7)
            )
        }
    }

    @Test func differentSeedsGiveDifferentWalks() {
        let ticks = 0..<200
        let differing = ticks.filter {
            DemoMarket.referencePrice(symbol: "NVDA", tick: $0, seed: 1)
                != DemoMarket.referencePrice(symbol: "NVDA", tick: $0, seed: 2)
        }
        #expect(differing.count == ticks.count)
        #expect(DemoMarket.price(symbol: "NVDA", brokerID: alpha, priceBias: 0, tick: 100, seed: 1)
            != DemoMarket.price(symbol: "NVDA", brokerID: alpha, priceBias: 0, tick: 100, seed: 2))
    }

    @Test func brokersDisagreeByAFewBasisPoints() {
        let ticks = 0..<2_000
        var relativeDifferences: [Double] = []
        for tick in ticks {
            // In cents, as integers: statistics of the model, not prices to show.
            let a = Double(DemoMarket.priceCents(symbol: "AMZN", brokerID: alpha, priceBias: 0, tick: tick, seed: 42))
            let b = Double(DemoMarket.priceCents(symbol: "AMZN", brokerID: beta, priceBias: 0.0004, tick: tick, seed: 42))
            relativeDifferences.append((b - a) / a)
        }
        #expect(relativeDifferences.allSatisfy { abs($0) < 0.002 })
        #expect(relativeDifferences.filter { $0 != 0 }.count > ticks.count / 2)
        // Beta's bias shows on average: about 4 basis points high.
        let mean = relativeDifferences.reduce(0, +) / Double(relativeDifferences.count)
        #expect(mean > 0.0002 && mean < 0.0006)
    }

    @Test func basePriceIsStableAndLooksLikeAStock() {
        // Symbols without a reference level (see wellKnownSymbolsStartNearTheirRealLevels for those).
        let symbols = (0..<500).map { "S\($0)" } + ["ZZZZ", "BRK.A", "^XYZ", "X"]
        let bases = symbols.map(DemoMarket.basePrice(symbol:))
        #expect(bases.allSatisfy { DemoMarket.basePriceRange.contains($0) })
        #expect(bases == symbols.map(DemoMarket.basePrice(symbol:)))
        #expect(bases.allSatisfy { abs($0 * 100 - ($0 * 100).rounded()) < 1e-6 }, "whole cents")
        // Spread over the range rather than clustered.
        #expect(bases.filter { $0 < 30 }.count > 50)
        #expect(bases.filter { $0 > 300 }.count > 50)
    }

    @Test func pricesStayPositiveAndNearTheBaseOver100kTicks() async {
        for symbol in ["AAPL", "TSLA", "F"] {
            let base = DemoMarket.basePrice(symbol: symbol)
            var low = Double.infinity, high = -Double.infinity
            var slice = TimeSlice()
            for tick in 0..<100_000 {
                await slice.yieldIfDue()
                let cents = DemoMarket.priceCents(symbol: symbol, brokerID: alpha, priceBias: 0, tick: tick, seed: 42)
                if tick % 1_000 == 0 {
                    #expect(DemoMarket.price(symbol: symbol, brokerID: alpha, priceBias: 0, tick: tick, seed: 42).units == cents * 1_000_000)
                }
                let price = Double(cents) / 100
                low = min(low, price)
                high = max(high, price)
            }
            #expect(low > 0)
            #expect(low > base * 0.6 && high < base * 1.6)
            #expect(high - low > base * 0.01, "the walk must move")
        }
    }

    @Test func tickToTickMovesAreSmall() {
        var previous = DemoMarket.referencePrice(symbol: "AAPL", tick: 0, seed: 42)
        var largest = 0.0
        for tick in 1..<10_000 {
            let price = DemoMarket.referencePrice(symbol: "AAPL", tick: tick, seed: 42)
            largest = max(largest, abs(price - previous) / previous)
            previous = price
        }
        #expect(largest > 0 && largest < 0.002)
    }

    @Test func previousCloseIsTheDaysBaseAllDay() {
        let day = 80_000 * DemoMarket.ticksPerDay
        let close = DemoMarket.previousClose(symbol: "AAPL", tick: day, seed: 42)
        let cents = (DemoMarket.referencePrice(symbol: "AAPL", tick: day, seed: 42) * 100).rounded()
        #expect(close.units == Int64(cents) * 1_000_000, "the day's first reference price, to the cent")
        for tick in stride(from: day, to: day + DemoMarket.ticksPerDay, by: 997) {
            #expect(DemoMarket.previousClose(symbol: "AAPL", tick: tick, seed: 42) == close)
        }
        #expect(DemoMarket.previousClose(symbol: "AAPL", tick: day + DemoMarket.ticksPerDay, seed: 42) != close)
    }

    @Test func volumeGrowsThroughTheDayAndRestarts() {
        let day = 80_000 * DemoMarket.ticksPerDay
        var previous = DemoMarket.volume(symbol: "AAPL", brokerID: alpha, tick: day, seed: 42)
        #expect(previous == 0)
        for tick in (day + 1)..<(day + DemoMarket.ticksPerDay) {
            let volume = DemoMarket.volume(symbol: "AAPL", brokerID: alpha, tick: tick, seed: 42)
            #expect(volume >= previous)
            previous = volume
        }
        #expect(previous > 100_000)
        #expect(DemoMarket.volume(symbol: "AAPL", brokerID: alpha, tick: day + DemoMarket.ticksPerDay, seed: 42) == 0)
    }

    @Test func quoteHasSpreadAroundLastAndAMeaningfulChange() throws {
        let quote = DemoMarket.quote(
            symbol: "AAPL", profile: .gamma, tick: 3_500_000_000, seed: 42, timestamp: Date(timeIntervalSince1970: 0)
        )
        let bid = try #require(quote.bid), ask = try #require(quote.ask)
        #expect(bid < quote.last && quote.last < ask)
        let spread: ExactDecimal = ask - bid, widest: ExactDecimal = quote.last * exactDecimal("0.002")
        #expect(spread < widest)
        #expect([bid, quote.last, ask].allSatisfy { $0.significantFractionDigits <= 2 }, "whole cents")
        #expect(quote.timestamp == Date(timeIntervalSince1970: 0))
        let changePercent = try #require(quote.changePercent)
        #expect(changePercent.magnitude < 20)
        #expect(quote.volume.map { $0 > 0 } == true)
    }

    @Test func aboutSevenInTenTicksUpdateASymbol() {
        let ticks = 0..<10_000
        let updating = ticks.filter { DemoMarket.updates(symbol: "AAPL", brokerID: alpha, tick: $0, seed: 42) }.count
        #expect((6_500...7_500).contains(updating))
        let sameForBeta = ticks.filter {
            DemoMarket.updates(symbol: "AAPL", brokerID: alpha, tick: $0, seed: 42)
                == DemoMarket.updates(symbol: "AAPL", brokerID: beta, tick: $0, seed: 42)
        }.count
        #expect(sameForBeta < ticks.count, "brokers update on different ticks")
    }

    @Test func tickCountsIntervalsSinceTheEpoch() {
        let interval = Duration.milliseconds(500)
        #expect(DemoMarket.tick(at: Date(timeIntervalSince1970: 0), interval: interval) == 0)
        #expect(DemoMarket.tick(at: Date(timeIntervalSince1970: 10.49), interval: interval) == 20)
        #expect(DemoMarket.tick(at: Date(timeIntervalSince1970: 10.5), interval: interval) == 21)
        #expect(DemoMarket.tick(at: Date(timeIntervalSince1970: -0.1), interval: interval) == -1)
    }
}
