import Domain
import Foundation
import Testing
import Locking
@testable import BrokerAdapters

@Suite struct PollingStateTests {
    let settings = PollingSettings(interval: .seconds(10), requestsPerMinute: 120, maxSymbolsPerRequest: 2)
    /// The wall-clock time of offset zero.
    let epoch = Date(timeIntervalSince1970: 1_750_000_000)

    func date(_ offset: Duration) -> Date { epoch.addingTimeInterval(offset.secondsValue) }

    func quote(_ symbol: String, _ last: Int) -> CommonQuote { ScriptedQuoteService.quote(symbol, last) }

    func answer(_ pairs: [(String, Result<CommonQuote, BrokerError>)]) -> PollingState.Answer {
        .success(Dictionary(uniqueKeysWithValues: pairs))
    }

    /// Polls whatever is due at `now` and answers every symbol with `price`.
    func pollAll(_ state: inout PollingState, at now: Duration, price: Int = 100) -> [QuoteEvent] {
        var events: [QuoteEvent] = []
        while case .poll(let batch) = state.nextStep(now: now) {
            guard case .emit(let emitted) = state.pollAnswered(batch, with: answer(batch.map { ($0, .success(quote($0, price))) }), at: now)
            else { Issue.record("finished"); return events }
            events += emitted
        }
        return events
    }

    @Test func withoutSymbolsItIdles() {
        var state = PollingState(settings: settings, epoch: epoch)
        #expect(state.nextStep(now: .zero) == .idle)
        #expect(state.subscribe([]) == false)
        #expect(state.nextStep(now: .seconds(100)) == .idle)
    }

    @Test func pollsOnlySubscribedSymbolsInSortedBatches() {
        var state = PollingState(settings: settings, epoch: epoch)
        #expect(state.subscribe(["MSFT", "AAPL", "TSLA"]) == true)
        #expect(state.nextStep(now: .zero) == .poll(["AAPL", "MSFT"]))
        _ = state.pollAnswered(["AAPL", "MSFT"], with: answer([]), at: .zero)
        #expect(state.nextStep(now: .zero) == .poll(["TSLA"]))
    }

    @Test func firstAnswerEmitsLiveThenQuotes() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL"])
        #expect(state.nextStep(now: .zero) == .poll(["AAPL"]))
        let outcome = state.pollAnswered(["AAPL"], with: answer([("AAPL", .success(quote("AAPL", 1)))]), at: .zero)
        #expect(outcome == .emit([.live, .quote(quote("AAPL", 1))]))
        #expect(state.isLive)
    }

    @Test func cyclesRepeatAnIntervalAfterTheyEnd() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL"])
        _ = state.nextStep(now: .zero)
        _ = state.pollAnswered(["AAPL"], with: answer([("AAPL", .success(quote("AAPL", 1)))]), at: .seconds(2))
        #expect(state.nextStep(now: .seconds(2)) == .sleep(until: .seconds(12)))
        #expect(state.nextStep(now: .seconds(12)) == .poll(["AAPL"]))
    }

    @Test func aNewSymbolIsDueAtOnceAndJoinsTheSchedule() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL"])
        _ = pollAll(&state, at: .zero)
        #expect(state.nextStep(now: .seconds(3)) == .sleep(until: .seconds(10)))
        #expect(state.subscribe(["AAPL", "MSFT"]) == true)
        #expect(state.nextStep(now: .seconds(3)) == .poll(["MSFT"]))
        _ = state.pollAnswered(["MSFT"], with: answer([("MSFT", .success(quote("MSFT", 1)))]), at: .seconds(3))
        #expect(state.nextStep(now: .seconds(3)) == .sleep(until: .seconds(10)))
        #expect(state.nextStep(now: .seconds(10)) == .poll(["AAPL", "MSFT"]))
        // Subscribing what is already followed changes nothing and needs no wake-up.
        #expect(state.subscribe(["AAPL"]) == false)
    }

    @Test func unsubscribedSymbolsAreNotPolledNorReported() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL", "MSFT"])
        #expect(state.nextStep(now: .zero) == .poll(["AAPL", "MSFT"]))
        // Gone while the request was out: its answer is dropped.
        state.unsubscribe(["MSFT"])
        #expect(state.stillDue(["AAPL", "MSFT"]) == ["AAPL"])
        let outcome = state.pollAnswered(
            ["AAPL", "MSFT"], with: answer([("AAPL", .success(quote("AAPL", 1))), ("MSFT", .success(quote("MSFT", 2)))]), at: .zero
        )
        #expect(outcome == .emit([.live, .quote(quote("AAPL", 1))]))
        #expect(state.nextStep(now: .seconds(10)) == .poll(["AAPL"]))
        state.unsubscribe(["AAPL"])
        #expect(state.nextStep(now: .seconds(10)) == .idle)
    }

    @Test func anUnchangedQuoteIsNotEmittedAgainButAResubscribedOneIs() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL"])
        #expect(pollAll(&state, at: .zero, price: 5) == [.live, .quote(quote("AAPL", 5))])
        #expect(pollAll(&state, at: .seconds(10), price: 5) == [])
        #expect(pollAll(&state, at: .seconds(20), price: 6) == [.quote(quote("AAPL", 6))])
        state.unsubscribe(["AAPL"])
        _ = state.subscribe(["AAPL"])
        #expect(pollAll(&state, at: .seconds(21), price: 6) == [.quote(quote("AAPL", 6))])
    }

    @Test func quotesCarryTheSubscribedSpelling() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["BRK.B"])
        _ = state.nextStep(now: .zero)
        let outcome = state.pollAnswered(["BRK.B"], with: answer([("BRK.B", .success(quote("BRK/B", 1)))]), at: .zero)
        #expect(outcome == .emit([.live, .quote(quote("BRK.B", 1))]))
    }

    @Test func aSymbolFailureIsEmittedOnlyWhenNewOrChanged() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL"])
        let flaky = BrokerError.badResponse("no last price")
        func poll(_ result: Result<CommonQuote, BrokerError>, at now: Duration) -> PollingState.Outcome {
            guard case .poll(let batch) = state.nextStep(now: now) else { return .emit([]) }
            return state.pollAnswered(batch, with: answer([("AAPL", result)]), at: now)
        }
        #expect(poll(.failure(flaky), at: .zero) == .emit([.live, .symbolFailed("AAPL", flaky)]))
        #expect(poll(.failure(flaky), at: .seconds(10)) == .emit([]))
        #expect(poll(.failure(.badResponse("other")), at: .seconds(20)) == .emit([.symbolFailed("AAPL", .badResponse("other"))]))
        // After a failure the same quote as before is news again: the row shows the failure.
        #expect(poll(.success(quote("AAPL", 1)), at: .seconds(30)) == .emit([.quote(quote("AAPL", 1))]))
        #expect(poll(.failure(flaky), at: .seconds(40)) == .emit([.symbolFailed("AAPL", flaky)]))
        #expect(poll(.success(quote("AAPL", 1)), at: .seconds(50)) == .emit([.quote(quote("AAPL", 1))]))
    }

    @Test func aPermanentSymbolFailureParksTheSymbolUntilSubscribedAgain() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL", "ZZZZ"])
        _ = state.nextStep(now: .zero)
        let outcome = state.pollAnswered(
            ["AAPL", "ZZZZ"], with: answer([("AAPL", .success(quote("AAPL", 1))), ("ZZZZ", .failure(.unknownSymbol("ZZZZ")))]), at: .zero
        )
        #expect(outcome == .emit([.live, .quote(quote("AAPL", 1)), .symbolFailed("ZZZZ", .unknownSymbol("ZZZZ"))]))
        #expect(state.parked == ["ZZZZ"])
        #expect(state.nextStep(now: .seconds(10)) == .poll(["AAPL"]))
        #expect(state.subscribe(["ZZZZ"]) == true)
        #expect(state.stillDue(["ZZZZ"]) == ["ZZZZ"])
    }

    @Test func onlyParkedSymbolsMeansIdle() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["ZZZZ"])
        _ = state.nextStep(now: .zero)
        _ = state.pollAnswered(["ZZZZ"], with: answer([("ZZZZ", .failure(.unknownSymbol("ZZZZ")))]), at: .zero)
        #expect(state.nextStep(now: .seconds(60)) == .idle)
    }

    @Test func aThrownUnknownSymbolFailsThatSymbolAndPollsTheRest() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL", "BAD"])
        #expect(state.nextStep(now: .zero) == .poll(["AAPL", "BAD"]))
        #expect(state.pollAnswered(["AAPL", "BAD"], with: .failure(.unknownSymbol("BAD")), at: .zero)
            == .emit([.symbolFailed("BAD", .unknownSymbol("BAD"))]))
        #expect(state.isLive == false)
        #expect(state.nextStep(now: .zero) == .poll(["AAPL"]))
    }

    @Test func rateLimitedWaitsRetryAfterAndRetriesTheSameBatch() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL"])
        _ = state.nextStep(now: .zero)
        #expect(state.pollAnswered(["AAPL"], with: .failure(.rateLimited(retryAfter: 7.5)), at: .seconds(1))
            == .emit([.retrying(at: date(.milliseconds(8_500)), after: .rateLimited(retryAfter: 7.5))]))
        #expect(state.nextStep(now: .seconds(1)) == .sleep(until: .milliseconds(8_500)))
        #expect(state.nextStep(now: .milliseconds(8_500)) == .poll(["AAPL"]))
        // Without Retry-After it backs off, doubling; rate limits never end the session.
        for attempt in 1...6 {
            let now = Duration.seconds(100 * attempt)
            _ = state.nextStep(now: now)
            let wait = settings.backoff(attempt: attempt + 1)
            #expect(state.pollAnswered(["AAPL"], with: .failure(.rateLimited(retryAfter: nil)), at: now)
                == .emit([.retrying(at: date(now + wait), after: .rateLimited(retryAfter: nil))]))
            #expect(state.nextStep(now: now) == .sleep(until: now + wait))
        }
        #expect(state.consecutiveFailures == 0)
    }

    @Test func aZeroRetryAfterStillWaits() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL"])
        _ = state.nextStep(now: .zero)
        _ = state.pollAnswered(["AAPL"], with: .failure(.rateLimited(retryAfter: 0)), at: .zero)
        #expect(state.nextStep(now: .zero) == .sleep(until: settings.backoffInitial))
    }

    @Test func transientFailuresBackOffAndTheThirdInARowFinishes() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL"])
        #expect(state.nextStep(now: .zero) == .poll(["AAPL"]))
        #expect(state.pollAnswered(["AAPL"], with: .failure(.server(status: 502)), at: .zero)
            == .emit([.retrying(at: date(.seconds(1)), after: .server(status: 502))]))
        #expect(state.nextStep(now: .zero) == .sleep(until: .seconds(1)))
        #expect(state.nextStep(now: .seconds(1)) == .poll(["AAPL"]))
        #expect(state.pollAnswered(["AAPL"], with: .failure(.network("reset")), at: .seconds(1))
            == .emit([.retrying(at: date(.seconds(3)), after: .network("reset"))]))
        #expect(state.nextStep(now: .seconds(1)) == .sleep(until: .seconds(3)))
        _ = state.nextStep(now: .seconds(3))
        #expect(state.pollAnswered(["AAPL"], with: .failure(.server(status: 500)), at: .seconds(3)) == .finish(.server(status: 500)))
        #expect(state.nextStep(now: .seconds(100)) == .finished)
    }

    @Test func aSuccessResetsTheFailureCount() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL"])
        for round in 0..<5 {
            let now = Duration.seconds(100 * round)
            _ = state.nextStep(now: now)
            _ = state.pollAnswered(["AAPL"], with: .failure(.server(status: 503)), at: now)
            _ = state.nextStep(now: now + .seconds(10))
            _ = state.pollAnswered(["AAPL"], with: .failure(.server(status: 503)), at: now + .seconds(10))
            // The answer after a failure says the broker is live again, even with nothing new to quote.
            #expect(pollAll(&state, at: now + .seconds(20)) == (round > 0 ? [.live] : [.live, .quote(quote("AAPL", 100))]))
            #expect(state.consecutiveFailures == 0)
        }
        #expect(state.isFinished == false)
    }

    @Test(arguments: [BrokerError.unauthorized(hint: "check TOKEN"), .limitExceeded("plan")])
    func permanentErrorsFinishAtOnce(error: BrokerError) {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL"])
        _ = state.nextStep(now: .zero)
        #expect(state.pollAnswered(["AAPL"], with: .failure(error), at: .zero) == .finish(error))
        #expect(state.nextStep(now: .zero) == .finished)
        #expect(state.isLive == false)
    }

    @Test func closeFinishesAndIgnoresLateAnswers() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL"])
        _ = state.nextStep(now: .zero)
        state.close()
        #expect(state.pollAnswered(["AAPL"], with: answer([("AAPL", .success(quote("AAPL", 1)))]), at: .zero) == .emit([]))
        #expect(state.nextStep(now: .zero) == .finished)
        #expect(state.subscribe(["MSFT"]) == false)
    }

    // MARK: Failed requests are the broker's (issue 13)

    /// A row that carries a 5xx, a 429 or a network error says the request failed, not anything about the
    /// symbol: no row failure, the answered rows still report, and the failing symbol is asked for again
    /// after the backoff.
    @Test func aTransientRowErrorIsAFailedRequestNotAVerdict() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL", "MSFT"])
        #expect(state.nextStep(now: .zero) == .poll(["AAPL", "MSFT"]))
        let outcome = state.pollAnswered(
            ["AAPL", "MSFT"], with: answer([("AAPL", .success(quote("AAPL", 1))), ("MSFT", .failure(.server(status: 500)))]), at: .zero
        )
        #expect(outcome == .emit([.quote(quote("AAPL", 1)), .retrying(at: date(.seconds(1)), after: .server(status: 500))]))
        #expect(state.parked.isEmpty)
        #expect(state.nextStep(now: .milliseconds(500)) == .sleep(until: .seconds(1)))
        #expect(state.nextStep(now: .seconds(1)) == .poll(["MSFT"]))
        #expect(state.pollAnswered(["MSFT"], with: answer([("MSFT", .success(quote("MSFT", 2)))]), at: .seconds(1))
            == .emit([.live, .quote(quote("MSFT", 2))]))
    }

    /// A 429 on any row pauses the whole poller for the time it names, even when another row failed
    /// differently.
    @Test func aRateLimitedRowPausesThePollerForItsRetryAfter() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL", "MSFT"])
        _ = state.nextStep(now: .zero)
        let outcome = state.pollAnswered(
            ["AAPL", "MSFT"], with: answer([("AAPL", .failure(.network("reset"))), ("MSFT", .failure(.rateLimited(retryAfter: 36)))]),
            at: .seconds(24)
        )
        #expect(outcome == .emit([.retrying(at: date(.seconds(60)), after: .rateLimited(retryAfter: 36))]))
        #expect(state.nextStep(now: .seconds(48)) == .sleep(until: .seconds(60)))
        #expect(state.nextStep(now: .seconds(60)) == .poll(["AAPL", "MSFT"]))
        #expect(state.consecutiveFailures == 0)
    }

    /// Only the broker says a symbol is unknown: one left out of an answer is asked for again next cycle.
    @Test func aSymbolLeftOutOfTheAnswerIsNoVerdict() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL", "MSFT"])
        _ = state.nextStep(now: .zero)
        #expect(state.pollAnswered(["AAPL", "MSFT"], with: answer([("AAPL", .success(quote("AAPL", 1)))]), at: .zero)
            == .emit([.live, .quote(quote("AAPL", 1))]))
        #expect(state.parked.isEmpty)
        #expect(state.nextStep(now: .seconds(10)) == .poll(["AAPL", "MSFT"]))
    }

    /// A body that could not be read fails the request: the broker backs off and says why, and the same
    /// symbols are asked for again; nothing is said about them.
    @Test func anUndecodableAnswerIsRetriedWithTheSameSymbols() {
        var state = PollingState(settings: settings, epoch: epoch)
        _ = state.subscribe(["AAPL", "MSFT"])
        _ = state.nextStep(now: .zero)
        let bad = BrokerError.badResponse("tradier: unexpected response: not JSON")
        #expect(state.pollAnswered(["AAPL", "MSFT"], with: .failure(bad), at: .zero) == .emit([.retrying(at: date(.seconds(1)), after: bad)]))
        #expect(state.nextStep(now: .seconds(1)) == .poll(["AAPL", "MSFT"]))
        #expect(state.parked.isEmpty)
        #expect(state.isRetrying)
    }

    @Test func settingsClampAndBackOff() {
        let wild = PollingSettings(interval: .zero, requestsPerMinute: 0, maxSymbolsPerRequest: -3, burst: 50)
        #expect(wild.interval == PollingSettings.minimumInterval)
        #expect(wild.requestsPerMinute == 1)
        #expect(wild.maxSymbolsPerRequest == 1)
        #expect(wild.burst == 1)
        #expect(PollingSettings(interval: .seconds(5), requestsPerMinute: 120, maxSymbolsPerRequest: 1).burst == 5)
        #expect(PollingSettings(interval: .seconds(5), requestsPerMinute: 5, maxSymbolsPerRequest: 1).burst == 1)
        let backoff = (1...9).map { settings.backoff(attempt: $0) }
        #expect(backoff == [1, 2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
        #expect(settings.backoff(attempt: .max) == .seconds(60))
    }
}
