import Locking
import TestSupport
import Domain
import Foundation
import Testing
@testable import BrokerAdapters

@Suite struct DemoBrokerTests {
    let settings = DemoBrokerSettings(seed: 42, tickInterval: .milliseconds(500))
    let stamp = Date(timeIntervalSince1970: 1_750_000_000)
    var startTick: Int { DemoMarket.tick(at: stamp, interval: settings.tickInterval) }

    func broker(_ profile: DemoBrokerProfile, clock: ManualClock) -> DemoBroker {
        let stamp = stamp
        return DemoBroker(profile: profile, settings: settings, clock: clock, now: { stamp })
    }

    func quote(_ symbol: String, _ profile: DemoBrokerProfile, elapsed: Int) -> QuoteEvent {
        .quote(DemoMarket.quote(symbol: symbol, profile: profile, tick: startTick + elapsed, seed: 42, timestamp: stamp))
    }

    /// What a tick emits for `symbols`, from the pure model.
    func tickEvents(_ symbols: [String], _ profile: DemoBrokerProfile, elapsed: Int) -> [QuoteEvent] {
        symbols.sorted()
            .filter { DemoMarket.updates(symbol: $0, brokerID: profile.branding.id, tick: startTick + elapsed, seed: 42) }
            .map { quote($0, profile, elapsed: elapsed) }
    }

    /// Releases `count` ticks one by one, each only once the session sleeps for it, and returns once the
    /// last one is processed (the session sleeps again).
    func releaseTicks(_ count: Int, on clock: ManualClock) async throws {
        for _ in 0..<count {
            try #require(await clock.sleepers(atLeast: 1))
            clock.advance(by: settings.tickInterval)
        }
        try #require(await clock.sleepers(atLeast: 1))
    }

    func drain(_ session: any QuoteStreamSession) async -> (events: [QuoteEvent], error: (any Error)?) {
        var events: [QuoteEvent] = []
        do {
            for try await event in session.events { events.append(event) }
            return (events, nil)
        } catch {
            return (events, error)
        }
    }

    // MARK: Request/response

    @Test(arguments: DemoBrokerProfile.all)
    func quotesWaitTheLatencyThenAnswerEverySymbol(profile: DemoBrokerProfile) async throws {
        let clock = ManualClock()
        let demo = broker(profile, clock: clock)
        let symbols = ["AAPL", "MSFT", "ZZZZ", "XXX", "TEST"]
        let request = Task { try await demo.quotes(for: symbols) }

        try #require(await clock.sleepers(atLeast: 1))
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: profile.latency)])
        clock.advance(by: profile.latency)
        let results = try await request.value

        #expect(Set(results.keys) == Set(symbols))
        for symbol in symbols {
            let expected = DemoMarket.quote(symbol: symbol, profile: profile, tick: startTick, seed: 42, timestamp: stamp)
            if profile.branding == DemoBrokerCatalog.gamma && DemoBrokerCatalog.flakyRejects.contains(symbol) {
                #expect(results[symbol] == .failure(.unknownSymbol(symbol)))
            } else {
                #expect(results[symbol] == .success(expected))
            }
        }
    }

    @Test func latenciesRankAlphaBetaGamma() {
        let latencies = DemoBrokers.make(settings: settings).map(\.profile.latency)
        #expect(latencies == [.milliseconds(40), .milliseconds(120), .milliseconds(250)])
    }

    @Test func cancelledRequestThrowsCancelled() async throws {
        let clock = ManualClock()
        let demo = broker(.beta, clock: clock)
        let request = Task { try await demo.quotes(for: ["AAPL"]) }
        try #require(await clock.sleepers(atLeast: 1))
        request.cancel()
        await #expect(throws: BrokerError.cancelled) { try await request.value }
    }

    @Test func makeBuildsTheThreeCatalogBrokers() {
        let brokers = DemoBrokers.make(settings: settings, clock: ManualClock(), now: { Date(timeIntervalSince1970: 0) })
        #expect(brokers.map(\.branding) == DemoBrokerCatalog.all)
        #expect(brokers.map(\.profile.isFlaky) == [false, false, true])
        #expect(brokers.allSatisfy { $0.settings == settings })
    }

    // MARK: Stream

    @Test func streamIsLiveThenQuotesOnlyWhatIsSubscribed() async throws {
        let clock = ManualClock()
        let session = try await broker(.alpha, clock: clock).openSession()
        await session.subscribe(["MSFT", "AAPL"])
        try await releaseTicks(6, on: clock)
        await session.close()

        let (events, error) = await drain(session)
        #expect(error == nil)
        var expected: [QuoteEvent] = [.live, quote("AAPL", .alpha, elapsed: 0), quote("MSFT", .alpha, elapsed: 0)]
        for elapsed in 1...6 { expected += tickEvents(["AAPL", "MSFT"], .alpha, elapsed: elapsed) }
        #expect(events == expected)
        #expect(events.count > 5)
    }

    @Test func unsubscribeStopsASymbolAndSubscribeStartsOneAtOnce() async throws {
        let clock = ManualClock()
        let session = try await broker(.beta, clock: clock).openSession()
        await session.subscribe(["AAPL", "MSFT"])
        try await releaseTicks(3, on: clock)
        await session.unsubscribe(["MSFT"])
        await session.subscribe(["TSLA"])
        try await releaseTicks(10, on: clock)
        await session.close()

        let (events, _) = await drain(session)
        var expected: [QuoteEvent] = [.live, quote("AAPL", .beta, elapsed: 0), quote("MSFT", .beta, elapsed: 0)]
        for elapsed in 1...3 { expected += tickEvents(["AAPL", "MSFT"], .beta, elapsed: elapsed) }
        expected.append(quote("TSLA", .beta, elapsed: 3))
        for elapsed in 4...13 { expected += tickEvents(["AAPL", "TSLA"], .beta, elapsed: elapsed) }
        #expect(events == expected)

        let afterUnsubscribe = events.drop(while: { $0 != quote("TSLA", .beta, elapsed: 3) })
        #expect(!afterUnsubscribe.isEmpty)
        #expect(!afterUnsubscribe.contains { if case .quote(let q) = $0 { q.symbol == "MSFT" } else { false } })
        #expect(afterUnsubscribe.contains { if case .quote(let q) = $0 { q.symbol == "AAPL" } else { false } })
    }

    @Test func aStalledClockSkipsToTheCurrentTick() async throws {
        let clock = ManualClock()
        let session = try await broker(.alpha, clock: clock).openSession()
        await session.subscribe(["AAPL", "MSFT", "TSLA", "NVDA"])
        try #require(await clock.sleepers(atLeast: 1))
        clock.advance(by: settings.tickInterval * 25)
        try #require(await clock.sleepers(atLeast: 1))
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: settings.tickInterval * 26)])
        await session.close()

        let (events, _) = await drain(session)
        #expect(Array(events.dropFirst(5)) == tickEvents(["AAPL", "MSFT", "TSLA", "NVDA"], .alpha, elapsed: 25))
    }

    @Test func flakyStreamRejectsItsSymbolsAndDropsAfterItsSeededTicks() async throws {
        let clock = ManualClock()
        let gamma = broker(.gamma, clock: clock)
        let session = try await gamma.openSession()
        await session.subscribe(["AAPL", "XXX"])
        // Opened on the broker's first tick, the connection lives until the first outage.
        let dropAfter = try #require(gamma.outages).outage(0).lowerBound - startTick
        try await releaseTicks(dropAfter - 1, on: clock)
        clock.advance(by: settings.tickInterval)

        let (events, error) = await drain(session)
        var expected: [QuoteEvent] = [.live, quote("AAPL", .gamma, elapsed: 0), .symbolFailed("XXX", .unknownSymbol("XXX"))]
        for elapsed in 1..<dropAfter { expected += tickEvents(["AAPL"], .gamma, elapsed: elapsed) }
        #expect(events == expected)
        #expect(error as? BrokerError == .network("demo feed dropped"))
        #expect(clock.pendingDeadlines.isEmpty, "a dropped stream stops ticking")
    }

    /// During an outage the flaky broker cannot be reached, so the hub keeps reconnecting (and the rows
    /// go stale) until it ends; steady brokers have no outages.
    @Test func theFlakyBrokerRefusesConnectionsDuringItsOutages() async throws {
        let time = Locked(stamp)
        let gamma = DemoBroker(profile: .gamma, settings: settings, clock: ManualClock(), now: { time.withLock { $0 } })
        let outage = try #require(gamma.outages).outage(0)
        func at(_ tick: Int) { time.withLock { $0 = Date(timeIntervalSince1970: Double(tick) * 0.5) } }

        at(outage.lowerBound - 1)
        await (try gamma.openSession()).close()
        at(outage.lowerBound)
        await #expect(throws: BrokerError.network("demo feed unreachable")) { try await gamma.openSession() }
        at(outage.upperBound - 1)
        await #expect(throws: BrokerError.network("demo feed unreachable")) { try await gamma.openSession() }
        at(outage.upperBound)
        await (try gamma.openSession()).close()

        #expect(broker(.alpha, clock: ManualClock()).outages == nil)
        #expect(broker(.beta, clock: ManualClock()).outages == nil)
    }

    @Test func closeFinishesTheStreamAndStopsTicking() async throws {
        let clock = ManualClock()
        let session = try await broker(.alpha, clock: clock).openSession()
        try #require(await clock.sleepers(atLeast: 1))
        await session.close()
        let (events, error) = await drain(session)
        #expect(events == [.live])
        #expect(error == nil)
        // Cancellation handlers run inside `cancel()`, so the ticking task has left its sleep already.
        #expect(clock.pendingDeadlines.isEmpty)
    }
}
