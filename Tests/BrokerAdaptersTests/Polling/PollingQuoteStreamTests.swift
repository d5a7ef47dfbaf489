import TestSupport
import Domain
import Foundation
import Testing
@testable import BrokerAdapters

/// The session against a manual clock and a scripted service. Events are read with the stream's
/// iterator at points where the loop is known to have produced them (it sleeps on the clock again, or
/// the stream ended), so reads never wait on timing; the time limit only guards against a broken loop.
@Suite(.timeLimit(.minutes(1))) struct PollingQuoteStreamTests {
    typealias Iterator = QuoteEvents.AsyncIterator

    func settings(
        interval: Duration = .seconds(10), requestsPerMinute: Int = 600, maxSymbolsPerRequest: Int = 10, burst: Int = 10
    ) -> PollingSettings {
        PollingSettings(interval: interval, requestsPerMinute: requestsPerMinute, maxSymbolsPerRequest: maxSymbolsPerRequest, burst: burst)
    }

    /// The wall-clock time of the manual clock's zero.
    static let epoch = Date(timeIntervalSince1970: 1_750_000_000)

    func open(_ service: ScriptedQuoteService, _ settings: PollingSettings, clock: ManualClock) async throws -> any QuoteStreamSession {
        try await PollingQuoteStream(service: service, settings: settings, clock: clock, wallClock: { Self.epoch }).openSession()
    }

    func date(_ seconds: Double) -> Date { Self.epoch.addingTimeInterval(seconds) }

    func quote(_ symbol: String, _ last: Int) -> QuoteEvent { .quote(ScriptedQuoteService.quote(symbol, last)) }

    func instants(_ seconds: Double...) -> [ManualClock.Instant] {
        seconds.map { ManualClock.Instant(offset: .milliseconds(Int64($0 * 1000))) }
    }

    /// The next `count` events, which the loop has already yielded.
    func next(_ count: Int, _ events: inout Iterator) async throws -> [QuoteEvent] {
        var read: [QuoteEvent] = []
        for _ in 0..<count {
            guard let event = try await events.next() else { break }
            read.append(event)
        }
        return read
    }

    /// How the stream ends: nil when it finished cleanly, else the error it threw.
    func ending(_ events: inout Iterator) async -> BrokerError? {
        do {
            while try await events.next() != nil {}
            return nil
        } catch let error as BrokerError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func pollsOnlySubscribedSymbolsAndEmitsLiveThenQuotes() async throws {
        let clock = ManualClock()
        let service = ScriptedQuoteService()
        let session = try await open(service, settings(), clock: clock)
        var events = session.events.makeAsyncIterator()
        await session.subscribe(["MSFT", "AAPL"])
        try #require(await clock.sleepers(atLeast: 1))
        #expect(service.calls == [["AAPL", "MSFT"]])
        #expect(try await next(3, &events) == [.live, quote("AAPL", 100), quote("MSFT", 100)])
        #expect(clock.pendingDeadlines == instants(10))
        await session.close()
        #expect(await ending(&events) == nil)
    }

    @Test func batchesRespectMaxSymbolsPerRequest() async throws {
        let clock = ManualClock()
        let service = ScriptedQuoteService()
        let session = try await open(service, settings(maxSymbolsPerRequest: 2), clock: clock)
        await session.subscribe(["E", "D", "C", "B", "A"])
        try #require(await clock.sleepers(atLeast: 1))
        #expect(service.calls == [["A", "B"], ["C", "D"], ["E"]])
        clock.advance(by: .seconds(10))
        try #require(await clock.sleepers(atLeast: 1))
        #expect(service.calls.dropFirst(3) == [["A", "B"], ["C", "D"], ["E"]])
        await session.close()
    }

    @Test func unsubscribedSymbolsStopBeingPolledAndNoSymbolsMeansNoCalls() async throws {
        let clock = ManualClock()
        let service = ScriptedQuoteService()
        let session = try await open(service, settings(), clock: clock)
        await session.subscribe(["AAPL", "MSFT"])
        try #require(await clock.sleepers(atLeast: 1))
        await session.unsubscribe(["MSFT"])
        clock.advance(by: .seconds(10))
        try #require(await clock.sleepers(atLeast: 1))
        #expect(service.calls == [["AAPL", "MSFT"], ["AAPL"]])

        // Nothing followed: the cycle that comes due asks for nothing, and the loop waits off the clock.
        await session.unsubscribe(["AAPL"])
        clock.advance(by: .seconds(10))
        clock.advance(by: .seconds(600))
        await session.subscribe(["TSLA"])
        try #require(await service.calls(atLeast: 3))
        try #require(await clock.sleepers(atLeast: 1))
        #expect(service.calls == [["AAPL", "MSFT"], ["AAPL"], ["TSLA"]])
        await session.close()
    }

    @Test func aSessionWithoutSymbolsMakesNoRequests() async throws {
        let clock = ManualClock()
        let service = ScriptedQuoteService()
        let session = try await open(service, settings(), clock: clock)
        var events = session.events.makeAsyncIterator()
        await session.subscribe([])
        clock.advance(by: .seconds(3600))
        #expect(clock.pendingDeadlines.isEmpty)
        await session.close()
        #expect(service.calls.isEmpty)
        #expect(try await next(1, &events).isEmpty)
    }

    @Test func aNewSubscriptionIsPolledPromptlyAndJoinsTheCycle() async throws {
        let clock = ManualClock()
        let service = ScriptedQuoteService()
        let session = try await open(service, settings(), clock: clock)
        var events = session.events.makeAsyncIterator()
        await session.subscribe(["AAPL"])
        try #require(await clock.sleepers(atLeast: 1))
        clock.advance(by: .seconds(3))
        #expect(try await next(2, &events) == [.live, quote("AAPL", 100)])

        await session.subscribe(["MSFT"])
        try #require(await service.calls(atLeast: 2))
        #expect(try await next(1, &events) == [quote("MSFT", 100)])
        try #require(await clock.sleepers(atLeast: 1))
        #expect(service.calls == [["AAPL"], ["MSFT"]])
        #expect(clock.pendingDeadlines == instants(10))
        clock.advance(by: .seconds(7))
        try #require(await clock.sleepers(atLeast: 1))
        #expect(service.calls.last == ["AAPL", "MSFT"])
        await session.close()
    }

    @Test func theRateLimiterSpacesRequestsToTheLimit() async throws {
        let clock = ManualClock()
        let service = ScriptedQuoteService()
        // Finnhub-like: one symbol per request, 60 a minute, no burst.
        let session = try await open(
            service, settings(interval: .seconds(30), requestsPerMinute: 60, maxSymbolsPerRequest: 1, burst: 1), clock: clock
        )
        await session.subscribe(["A", "B", "C"])
        var counts: [Int] = []
        var deadlines: [[ManualClock.Instant]] = []
        for _ in 0..<3 {
            try #require(await clock.sleepers(atLeast: 1))
            counts.append(service.calls.count)
            deadlines.append(clock.pendingDeadlines)
            clock.advance(by: .seconds(1))
        }
        #expect(counts == [1, 2, 3])
        #expect(deadlines == [instants(1), instants(2), instants(32)])
        #expect(service.calls == [["A"], ["B"], ["C"]])
        await session.close()
    }

    @Test func sessionsOfOneStreamShareTheRateLimiter() async throws {
        let clock = ManualClock()
        let service = ScriptedQuoteService()
        let stream = PollingQuoteStream(
            service: service, settings: settings(requestsPerMinute: 60, maxSymbolsPerRequest: 1, burst: 1), clock: clock
        )
        let first = try await stream.openSession()
        await first.subscribe(["A"])
        try #require(await clock.sleepers(atLeast: 1))
        await first.close()
        // A reconnect does not get a fresh budget.
        let second = try await stream.openSession()
        await second.subscribe(["A"])
        try #require(await clock.sleepers(atLeast: 1))
        #expect(service.calls.count == 1)
        #expect(clock.pendingDeadlines == instants(1))
        clock.advance(by: .seconds(1))
        try #require(await service.calls(atLeast: 2))
        await second.close()
    }

    @Test func rateLimitedWaitsRetryAfterBeforeTheNextCall() async throws {
        let clock = ManualClock()
        let service = ScriptedQuoteService { call, symbols in
            call == 0 ? .failure(.rateLimited(retryAfter: 7)) : .success([symbols[0]: .success(ScriptedQuoteService.quote(symbols[0], 1))])
        }
        let session = try await open(service, settings(), clock: clock)
        var events = session.events.makeAsyncIterator()
        await session.subscribe(["AAPL"])
        try #require(await clock.sleepers(atLeast: 1))
        #expect(clock.pendingDeadlines == instants(7))
        clock.advance(by: .milliseconds(6_999))
        #expect(service.calls.count == 1)
        clock.advance(by: .milliseconds(1))
        try #require(await service.calls(atLeast: 2))
        #expect(try await next(3, &events) == [.retrying(at: date(7), after: .rateLimited(retryAfter: 7)), .live, quote("AAPL", 1)])
        await session.close()
    }

    @Test func threeServerErrorsInARowFinishTheStream() async throws {
        let clock = ManualClock()
        let service = ScriptedQuoteService { _, _ in .failure(.server(status: 500)) }
        let session = try await open(service, settings(), clock: clock)
        var events = session.events.makeAsyncIterator()
        await session.subscribe(["AAPL"])
        try #require(await clock.sleepers(atLeast: 1))
        #expect(clock.pendingDeadlines == instants(1))
        clock.advance(by: .seconds(1))
        try #require(await clock.sleepers(atLeast: 1))
        #expect(clock.pendingDeadlines == instants(3))
        clock.advance(by: .seconds(2))
        #expect(await ending(&events) == .server(status: 500))
        #expect(service.calls.count == 3)
        #expect(clock.pendingDeadlines.isEmpty)
        await session.close()
    }

    @Test func unauthorizedFinishesTheStreamAtOnce() async throws {
        let clock = ManualClock()
        let service = ScriptedQuoteService { _, _ in .failure(.unauthorized(hint: "check TEST_TOKEN")) }
        let session = try await open(service, settings(), clock: clock)
        var events = session.events.makeAsyncIterator()
        await session.subscribe(["AAPL", "MSFT"])
        #expect(await ending(&events) == .unauthorized(hint: "check TEST_TOKEN"))
        await session.close()
        #expect(service.calls == [["AAPL", "MSFT"]])
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test func identicalQuotesAreNotEmittedAgain() async throws {
        let clock = ManualClock()
        // Unchanged on the second poll, moved on the third.
        let service = ScriptedQuoteService { call, _ in call < 2 ? 100 : 101 }
        let session = try await open(service, settings(), clock: clock)
        var events = session.events.makeAsyncIterator()
        await session.subscribe(["AAPL"])
        try #require(await clock.sleepers(atLeast: 1))
        clock.advance(by: .seconds(10))
        try #require(await clock.sleepers(atLeast: 1))
        clock.advance(by: .seconds(10))
        try #require(await clock.sleepers(atLeast: 1))
        #expect(service.calls.count == 3)
        #expect(try await next(3, &events) == [.live, quote("AAPL", 100), quote("AAPL", 101)])
        await session.close()
    }

    @Test func aSymbolFailureIsEmittedOnceAndAnUnknownSymbolIsNoLongerPolled() async throws {
        let clock = ManualClock()
        let flaky = BrokerError.badResponse("no last price")
        let service = ScriptedQuoteService { call, _ in
            .success([
                "AAPL": .success(ScriptedQuoteService.quote("AAPL", 100 + call)),
                "FLKY": .failure(flaky),
                "ZZZZ": .failure(.unknownSymbol("ZZZZ")),
            ])
        }
        let session = try await open(service, settings(), clock: clock)
        var events = session.events.makeAsyncIterator()
        await session.subscribe(["AAPL", "FLKY", "ZZZZ"])
        try #require(await clock.sleepers(atLeast: 1))
        clock.advance(by: .seconds(10))
        try #require(await clock.sleepers(atLeast: 1))
        #expect(try await next(5, &events) == [
            .live, quote("AAPL", 100), .symbolFailed("FLKY", flaky), .symbolFailed("ZZZZ", .unknownSymbol("ZZZZ")),
            quote("AAPL", 101),
        ])
        #expect(service.calls == [["AAPL", "FLKY", "ZZZZ"], ["AAPL", "FLKY"]])
        await session.close()
    }

    @Test func closeEndsTheStreamAndThePolling() async throws {
        let clock = ManualClock()
        let service = ScriptedQuoteService()
        let session = try await open(service, settings(), clock: clock)
        var events = session.events.makeAsyncIterator()
        await session.subscribe(["AAPL"])
        try #require(await clock.sleepers(atLeast: 1))
        await session.close()
        #expect(clock.pendingDeadlines.isEmpty)
        clock.advance(by: .seconds(60))
        await session.subscribe(["MSFT"])
        #expect(service.calls == [["AAPL"]])
        #expect(try await next(3, &events) == [.live, quote("AAPL", 100)])
        #expect(await ending(&events) == nil)
    }

    @Test func brandingIsTheServices() {
        let stream = PollingQuoteStream(service: ScriptedQuoteService(), settings: settings())
        #expect(stream.branding == ScriptedQuoteService.brand)
    }
}
