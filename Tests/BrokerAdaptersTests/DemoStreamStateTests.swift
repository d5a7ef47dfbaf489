import Domain
import Foundation
import Testing
@testable import BrokerAdapters

@Suite struct DemoStreamStateTests {
    let stamp = Date(timeIntervalSince1970: 1_750_000_000)
    let startTick = 3_500_000_000

    func quote(_ symbol: String, _ profile: DemoBrokerProfile = .alpha, elapsed: Int) -> QuoteEvent {
        .quote(DemoMarket.quote(symbol: symbol, profile: profile, tick: startTick + elapsed, seed: 42, timestamp: stamp))
    }

    @Test func newlySubscribedSymbolsGetAQuoteAtOnce() {
        var state = DemoStreamState(profile: .alpha, seed: 42, startTick: startTick)
        #expect(state.subscribe(["MSFT", "AAPL"], at: stamp) == [quote("AAPL", elapsed: 0), quote("MSFT", elapsed: 0)])
        #expect(state.subscribe(["AAPL", "TSLA"], at: stamp) == [quote("TSLA", elapsed: 0)])
        #expect(state.symbols == ["AAPL", "MSFT", "TSLA"])
    }

    @Test func aTickQuotesTheFollowedSymbolsThatMove() {
        var state = DemoStreamState(profile: .beta, seed: 42, startTick: startTick)
        _ = state.subscribe(["AAPL", "MSFT", "TSLA"], at: stamp)
        var total = 0
        for elapsed in 1...30 {
            let expected = ["AAPL", "MSFT", "TSLA"]
                .filter { DemoMarket.updates(symbol: $0, brokerID: DemoBrokerCatalog.beta.id, tick: startTick + elapsed, seed: 42) }
                .map { quote($0, .beta, elapsed: elapsed) }
            #expect(state.advance(toElapsed: elapsed, at: stamp) == .events(expected))
            total += expected.count
        }
        #expect(total > 30 && total < 90, "some but not all symbols move on a tick")
        #expect(state.currentTick == startTick + 30)
    }

    @Test func unsubscribedSymbolsStopAtOnce() {
        var state = DemoStreamState(profile: .alpha, seed: 42, startTick: startTick)
        _ = state.subscribe(["AAPL", "MSFT"], at: stamp)
        state.unsubscribe(["MSFT"])
        for elapsed in 1...20 {
            guard case .events(let events) = state.advance(toElapsed: elapsed, at: stamp) else {
                Issue.record("alpha never drops")
                return
            }
            #expect(events.allSatisfy { if case .quote(let q) = $0 { q.symbol == "AAPL" } else { false } })
        }
    }

    @Test func skippedTicksAreNotReplayedAndTimeNeverGoesBack() {
        var state = DemoStreamState(profile: .alpha, seed: 42, startTick: startTick)
        _ = state.subscribe(["AAPL"], at: stamp)
        _ = state.advance(toElapsed: 10, at: stamp)
        #expect(state.elapsedTicks == 10)
        _ = state.advance(toElapsed: 4, at: stamp)
        #expect(state.elapsedTicks == 10)
    }

    @Test func theFlakyBrokerRejectsItsSymbolsEveryTime() {
        var state = DemoStreamState(profile: .gamma, seed: 42, startTick: startTick)
        let events = state.subscribe(["AAPL", "ZZZZ", "TEST"], at: stamp)
        #expect(events == [
            quote("AAPL", .gamma, elapsed: 0),
            .symbolFailed("TEST", .unknownSymbol("TEST")),
            .symbolFailed("ZZZZ", .unknownSymbol("ZZZZ")),
        ])
        #expect(state.symbols == ["AAPL"])
        #expect(state.subscribe(["ZZZZ"], at: stamp) == [.symbolFailed("ZZZZ", .unknownSymbol("ZZZZ"))])
    }

    @Test func otherBrokersQuoteTheFlakyRejects() {
        var state = DemoStreamState(profile: .beta, seed: 42, startTick: startTick)
        #expect(state.subscribe(["ZZZZ"], at: stamp) == [quote("ZZZZ", .beta, elapsed: 0)])
    }

    @Test func theFlakyBrokerDropsWhenItsNextOutageStarts() throws {
        let plan = try #require(DemoBrokerProfile.gamma.outages)
        let outages = DemoOutageSchedule(plan: plan, brokerID: DemoBrokerCatalog.gamma.id, originTick: startTick - 5, seed: 42)
        var state = DemoStreamState(profile: .gamma, seed: 42, startTick: startTick, outages: outages)
        let dropAfter = outages.outage(0).lowerBound - startTick
        #expect(dropAfter > 0)
        #expect(state.dropAfter == dropAfter)
        for elapsed in 1..<dropAfter {
            guard case .events = state.advance(toElapsed: elapsed, at: stamp) else {
                Issue.record("dropped early, at \(elapsed) of \(dropAfter) ticks")
                return
            }
        }
        #expect(state.advance(toElapsed: dropAfter, at: stamp) == .drop(.network("demo feed dropped")))
        #expect(state.advance(toElapsed: dropAfter + 1, at: stamp) == .finished)
        #expect(state.subscribe(["AAPL"], at: stamp).isEmpty)
    }

    @Test func steadyBrokersNeverDrop() {
        var state = DemoStreamState(profile: .alpha, seed: 42, startTick: startTick)
        #expect(state.dropAfter == nil)
        guard case .events = state.advance(toElapsed: 1_000_000, at: stamp) else {
            Issue.record("alpha dropped")
            return
        }
    }

    @Test func closingFinishesTheConnection() {
        var state = DemoStreamState(profile: .alpha, seed: 42, startTick: startTick)
        _ = state.subscribe(["AAPL"], at: stamp)
        state.close()
        #expect(state.advance(toElapsed: 1, at: stamp) == .finished)
        #expect(state.subscribe(["MSFT"], at: stamp).isEmpty)
    }
}
