import Domain
import Foundation
import Testing

@testable import MarketDataHub

typealias Machine = HubStateMachine
typealias UpstreamID = HubStateMachine.UpstreamID

private func quote(_ symbol: String, _ last: ExactDecimal) -> CommonQuote {
    CommonQuote(symbol: symbol, last: last, timestamp: Date(timeIntervalSince1970: 1_700_000_000))
}

private func key(_ broker: String, _ symbol: String) -> QuoteKey { QuoteKey(brandID: broker, symbol: symbol) }

private func keys(_ symbols: Set<String>, brokers: [String] = ["alpha", "beta"]) -> Set<QuoteKey> {
    Set(symbols.flatMap { symbol in brokers.map { key($0, symbol) } })
}

/// Two brokers, no jitter, delays 1 s, 2 s, 4 s, capped at 4 s.
private func makeMachine(brokers: [String] = ["alpha", "beta"]) -> Machine {
    Machine(brokers: brokers, backoff: BackoffPolicy(initial: .seconds(1), multiplier: 2, maximum: .seconds(4), jitter: 0))
}

private let connectingEverywhere: [String: BrokerConnectionState] = ["alpha": .connecting, "beta": .connecting]

/// A machine with subscriber 1 on `symbols` and both upstreams open (generation 1) and subscribed.
private func openMachine(_ symbols: Set<String>) -> Machine {
    var machine = makeMachine()
    _ = machine.addSubscriber(1, symbols: symbols)
    _ = machine.upstreamOpened(UpstreamID(broker: "alpha", generation: 1), at: .zero)
    _ = machine.upstreamOpened(UpstreamID(broker: "beta", generation: 1), at: .zero)
    return machine
}

@Suite struct HubStateMachineTests {
    let alpha1 = UpstreamID(broker: "alpha", generation: 1)
    let beta1 = UpstreamID(broker: "beta", generation: 1)

    @Test func firstSubscriberOpensEveryBrokerAndSubscribesOnceOpen() {
        var machine = makeMachine()
        let actions = machine.addSubscriber(1, symbols: ["AAPL", "MSFT"])
        #expect(actions == [
            .follow(1, keys: keys(["AAPL", "MSFT"]), replay: MarketUpdate(brokerStates: connectingEverywhere)),
            .openUpstream(alpha1),
            .openUpstream(beta1),
        ])
        #expect(machine.upstreamOpened(alpha1, at: .zero) == [.subscribeUpstream(alpha1, ["AAPL", "MSFT"])])
        #expect(machine.state(of: "alpha") == .connecting)
    }

    @Test func symbolsAddedWhileOpeningAreSubscribedInOneBatchOnOpen() {
        var machine = makeMachine()
        _ = machine.addSubscriber(1, symbols: ["AAPL"])
        let added = machine.setSymbols(["AAPL", "MSFT"], for: 1)
        #expect(added == [.follow(1, keys: keys(["MSFT"]), replay: MarketUpdate())])
        #expect(machine.upstreamOpened(alpha1, at: .zero) == [.subscribeUpstream(alpha1, ["AAPL", "MSFT"])])
    }

    /// One symbol is kept inline and more in an array (`SubscriberSymbols`): a subscriber going from
    /// one symbol to several and back, and to none, keeps exactly its symbols and their demand.
    @Test func aSubscribersSymbolsSurviveGoingFromOneToManyToOneToNone() {
        var machine = openMachine(["AAPL"])
        #expect(machine.symbols(of: 1) == ["AAPL"])
        _ = machine.setSymbols(["AAPL", "MSFT", "TSLA"], for: 1)
        #expect(machine.symbols(of: 1) == ["AAPL", "MSFT", "TSLA"])
        let narrowed = machine.setSymbols(["TSLA"], for: 1)
        #expect(narrowed.contains(.unfollow(1, keys: keys(["AAPL", "MSFT"]))))
        #expect(machine.symbols(of: 1) == ["TSLA"])
        #expect(machine.demand(for: "AAPL") == 0 && machine.demand(for: "TSLA") == 1)
        _ = machine.setSymbols([], for: 1)
        #expect(machine.symbols(of: 1) == [])
        #expect(machine.demand(for: "TSLA") == 0)
        _ = machine.setSymbols(["NVDA"], for: 1)
        #expect(machine.symbols(of: 1) == ["NVDA"])
        #expect(machine.removeSubscriber(1).first == .finishSubscriber(1))
        #expect(machine.symbols(of: 1) == nil)
        #expect(machine.demand(for: "NVDA") == 0)
    }

    @Test func secondSubscriberOfTheSameSymbolCausesNoUpstreamWork() {
        var machine = openMachine(["AAPL"])
        let actions = machine.addSubscriber(2, symbols: ["AAPL"])
        #expect(actions == [.follow(2, keys: keys(["AAPL"]), replay: MarketUpdate(brokerStates: connectingEverywhere))])
        #expect(machine.demand(for: "AAPL") == 2)
    }

    @Test func lastSubscriberLeavingUnsubscribesAndClosesEveryUpstream() {
        var machine = openMachine(["AAPL"])
        _ = machine.addSubscriber(2, symbols: ["AAPL"])
        #expect(machine.removeSubscriber(2) == [.finishSubscriber(2)])
        #expect(machine.removeSubscriber(1) == [
            .finishSubscriber(1),
            .unsubscribeUpstream(alpha1, ["AAPL"]), .closeUpstream(alpha1),
            .unsubscribeUpstream(beta1, ["AAPL"]), .closeUpstream(beta1),
        ])
        #expect(machine.demandedSymbols.isEmpty)
        // Removing twice (cancel, then the stream's termination) changes nothing.
        #expect(machine.removeSubscriber(1) == [])
    }

    @Test func overlappingSubscribersAreRefCountedPerSymbol() {
        var machine = openMachine(["AAPL", "MSFT"])
        let second = machine.addSubscriber(2, symbols: ["MSFT", "TSLA"])
        #expect(second.contains(.subscribeUpstream(alpha1, ["TSLA"])))
        #expect(second.contains(.subscribeUpstream(beta1, ["TSLA"])))
        #expect(machine.demand(for: "MSFT") == 2)

        #expect(machine.removeSubscriber(1) == [
            .finishSubscriber(1),
            .unsubscribeUpstream(alpha1, ["AAPL"]),
            .unsubscribeUpstream(beta1, ["AAPL"]),
        ])
        #expect(machine.demand(for: "MSFT") == 1)
        #expect(machine.demandedSymbols == ["MSFT", "TSLA"])

        let moved = machine.setSymbols(["TSLA", "IBM"], for: 2)
        #expect(moved.contains(.unfollow(2, keys: keys(["MSFT"]))))
        #expect(moved.contains(.unsubscribeUpstream(alpha1, ["MSFT"])))
        #expect(moved.contains(.subscribeUpstream(alpha1, ["IBM"])))
        #expect(machine.setSymbols(["TSLA", "IBM"], for: 2) == [])
    }

    @Test func newSubscriberReplaysCachedQuotesFailuresAndEveryBrokerState() {
        var machine = openMachine(["AAPL", "ZZZZ"])
        #expect(machine.upstreamReceived(.live, from: beta1) == [.publishBrokerState(broker: "beta", .live)])
        let aapl = quote("AAPL", exactDecimal("190.5"))
        #expect(machine.upstreamReceived(.quote(aapl), from: alpha1) == [
            .publishBrokerState(broker: "alpha", .live),
            .publishQuote(key("alpha", "AAPL"), aapl),
        ])
        #expect(machine.upstreamReceived(.symbolFailed("ZZZZ", .unknownSymbol("ZZZZ")), from: beta1) == [
            .publishFailure(key("beta", "ZZZZ"), .unknownSymbol("ZZZZ")),
        ])

        let actions = machine.addSubscriber(2, symbols: ["AAPL", "ZZZZ", "IBM"])
        let replay = MarketUpdate(
            quotes: [key("alpha", "AAPL"): aapl],
            failures: [key("beta", "ZZZZ"): .unknownSymbol("ZZZZ")],
            brokerStates: ["alpha": .live, "beta": .live]
        )
        #expect(actions.first == .follow(2, keys: keys(["AAPL", "ZZZZ", "IBM"]), replay: replay))

        // Following a symbol later replays it too, without broker states.
        _ = machine.addSubscriber(3, symbols: [])
        #expect(machine.setSymbols(["AAPL"], for: 3) == [
            .follow(3, keys: keys(["AAPL"]), replay: MarketUpdate(quotes: [key("alpha", "AAPL"): aapl])),
        ])
    }

    @Test func quoteClearsTheFailureOfItsKeyOnly() {
        var machine = openMachine(["AAPL"])
        _ = machine.upstreamReceived(.symbolFailed("AAPL", .badResponse("x")), from: alpha1)
        _ = machine.upstreamReceived(.symbolFailed("AAPL", .badResponse("y")), from: beta1)
        _ = machine.upstreamReceived(.quote(quote("AAPL", 1)), from: alpha1)
        #expect(machine.cachedFailure(key("alpha", "AAPL")) == nil)
        #expect(machine.cachedFailure(key("beta", "AAPL")) == .badResponse("y"))
        #expect(machine.cachedQuote(key("alpha", "AAPL"))?.last == 1)
    }

    @Test func quotesForSymbolsNobodyFollowsAreNeitherCachedNorPublished() {
        var machine = openMachine(["AAPL"])
        _ = machine.upstreamReceived(.live, from: alpha1)
        #expect(machine.upstreamReceived(.quote(quote("GOOG", 1)), from: alpha1) == [])
        #expect(machine.cachedQuote(key("alpha", "GOOG")) == nil)
    }

    /// Quotes come through the same entry point as every other event, appending to a buffer the hub reuses.
    @Test func aQuoteSaysWhenABrokerBecomesLiveAndReusesTheBuffer() {
        var machine = openMachine(["AAPL"])
        var buffer: [Machine.Action] = []
        machine.upstreamReceived(.quote(quote("AAPL", 1)), from: alpha1, into: &buffer)
        #expect(buffer == [.publishBrokerState(broker: "alpha", .live), .publishQuote(key("alpha", "AAPL"), quote("AAPL", 1))])
        buffer.removeAll(keepingCapacity: true)
        machine.upstreamReceived(.quote(quote("AAPL", 2)), from: alpha1, into: &buffer)
        #expect(buffer == [.publishQuote(key("alpha", "AAPL"), quote("AAPL", 2))])
        #expect(machine.state(of: "alpha") == .live)
        #expect(machine.cachedQuote(key("alpha", "AAPL"))?.last == 2)
        #expect(machine.upstreamReceived(.quote(quote("GOOG", 1)), from: alpha1) == [])
        #expect(machine.upstreamReceived(.quote(quote("AAPL", 3)), from: UpstreamID(broker: "alpha", generation: 0)) == [])
        #expect(machine.cachedQuote(key("alpha", "AAPL"))?.last == 2)
    }

    @Test func cacheIsDroppedWhenDemandForASymbolEnds() {
        var machine = openMachine(["AAPL"])
        _ = machine.upstreamReceived(.quote(quote("AAPL", 1)), from: alpha1)
        _ = machine.removeSubscriber(1)
        #expect(machine.cachedQuote(key("alpha", "AAPL")) == nil)
    }

    /// A symbol's cached quote is what lets a quote skip the demand lookup, so once the demand ends the
    /// next quote of that symbol, from an upstream still open for others, must be neither cached nor
    /// published; one demanded again starts from no price.
    @Test func aSymbolWhoseDemandEndedIsNotPublishedAgainFromItsOldCacheEntry() {
        var machine = openMachine(["AAPL"])
        _ = machine.addSubscriber(2, symbols: ["MSFT"])
        _ = machine.upstreamReceived(.quote(quote("AAPL", 1)), from: alpha1)
        _ = machine.upstreamReceived(.quote(quote("MSFT", 1)), from: alpha1)
        _ = machine.removeSubscriber(1)
        #expect(machine.upstreamReceived(.quote(quote("AAPL", 2)), from: alpha1) == [])
        #expect(machine.cachedQuote(key("alpha", "AAPL")) == nil)
        #expect(machine.upstreamReceived(.quote(quote("MSFT", 2)), from: alpha1) == [.publishQuote(key("alpha", "MSFT"), quote("MSFT", 2))])
        _ = machine.addSubscriber(3, symbols: ["AAPL"])
        #expect(machine.cachedQuote(key("alpha", "AAPL")) == nil)
        #expect(machine.upstreamReceived(.quote(quote("AAPL", 3)), from: alpha1) == [.publishQuote(key("alpha", "AAPL"), quote("AAPL", 3))])
        #expect(machine.cachedQuote(key("alpha", "AAPL"))?.last == 3)
    }

    @Test func failuresScheduleReconnectsWithGrowingCappedDelays() {
        var machine = makeMachine(brokers: ["alpha"])
        _ = machine.addSubscriber(1, symbols: ["AAPL"])
        var id = alpha1
        var delays: [Duration] = []
        for attempt in 1...5 {
            let actions = machine.upstreamOpenFailed(id, error: .network("refused"))
            let state = BrokerConnectionState.reconnecting(attempt: attempt, reason: "network error: refused")
            guard case .scheduleReconnect(let scheduled, attempt, let delay) = actions.last else {
                Issue.record("no reconnect scheduled in \(actions)")
                return
            }
            #expect(actions.first == .publishBrokerState(broker: "alpha", state))
            #expect(scheduled == id)
            delays.append(delay)
            let reopen = machine.reconnectDue(id)
            id.generation += 1
            #expect(reopen == [.openUpstream(id)])
            #expect(machine.state(of: "alpha") == state)
        }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(4), .seconds(4)])
    }

    @Test func droppedStreamClosesTheSessionAndRetries() {
        var machine = openMachine(["AAPL"])
        _ = machine.upstreamReceived(.live, from: alpha1)
        let actions = machine.upstreamEnded(alpha1, error: nil, at: .zero)
        #expect(actions == [
            .closeUpstream(alpha1),
            .publishBrokerState(broker: "alpha", .reconnecting(attempt: 1, reason: "connection closed")),
            .scheduleReconnect(alpha1, attempt: 1, delay: .seconds(1)),
        ])
    }

    @Test func reconnectResubscribesEveryDemandedSymbolIncludingOnesAddedWhileDown() {
        var machine = openMachine(["AAPL"])
        _ = machine.upstreamEnded(alpha1, error: .network("reset"), at: .zero)
        // Added while alpha is down: beta subscribes at once, alpha waits for its reconnect.
        let added = machine.setSymbols(["AAPL", "MSFT"], for: 1)
        #expect(added == [.follow(1, keys: keys(["MSFT"]), replay: MarketUpdate()), .subscribeUpstream(beta1, ["MSFT"])])

        let alpha2 = UpstreamID(broker: "alpha", generation: 2)
        #expect(machine.reconnectDue(alpha1) == [.openUpstream(alpha2)])
        #expect(machine.upstreamOpened(alpha2, at: .seconds(10)) == [.subscribeUpstream(alpha2, ["AAPL", "MSFT"])])
        #expect(machine.upstreamReceived(.live, from: alpha2) == [.publishBrokerState(broker: "alpha", .live)])
        _ = machine.upstreamReceived(.quote(quote("AAPL", 190)), from: alpha2)

        // The session lived its healthy lifetime: the next drop is attempt 1 again.
        let again = machine.upstreamEnded(alpha2, error: .network("reset"), at: .seconds(10) + machine.backoff.healthyLifetime)
        #expect(again.contains(.scheduleReconnect(alpha2, attempt: 1, delay: .seconds(1))))
    }

    /// A server that accepts, sends a few quotes and drops (or closes on anything it dislikes) must see the
    /// delays grow: quotes do not reset the backoff, only a session that lived `healthyLifetime` does.
    /// Before, every delivered quote reset it, and such a broker was reconnected every ~0.45 s.
    @Test func sessionsThatDieYoungKeepTheBackoffGrowingEvenAfterQuotes() {
        var machine = openMachine(["AAPL"])
        var id = alpha1
        var now = Duration.zero
        var delays: [Duration] = []
        for attempt in 1...5 {
            _ = machine.upstreamReceived(.live, from: id)
            _ = machine.upstreamReceived(.quote(quote("AAPL", ExactDecimal(190 + attempt))), from: id)
            now += .seconds(5)
            let ended = machine.upstreamEnded(id, error: .network("reset"), at: now)
            guard case .scheduleReconnect(id, attempt, let delay) = ended.last else {
                Issue.record("attempt \(attempt): \(ended)")
                return
            }
            delays.append(delay)
            now += delay
            let next = UpstreamID(broker: "alpha", generation: id.generation + 1)
            #expect(machine.reconnectDue(id) == [.openUpstream(next)])
            _ = machine.upstreamOpened(next, at: now)
            id = next
        }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(4), .seconds(4)])
        #expect(machine.attempt(of: "alpha") == 5)
    }

    /// The boundary: a session that lived exactly `healthyLifetime` resets the count, one just short does not.
    @Test(arguments: [(Duration.seconds(60), 1), (Duration.seconds(60) - .milliseconds(1), 3)])
    func onlyASessionThatLivedItsHealthyLifetimeResetsTheBackoff(lifetime: Duration, expectedAttempt: Int) {
        var machine = openMachine(["AAPL"])
        #expect(machine.backoff.healthyLifetime == .seconds(60))
        _ = machine.upstreamEnded(alpha1, error: .network("reset"), at: .seconds(1))
        let alpha2 = UpstreamID(broker: "alpha", generation: 2)
        _ = machine.reconnectDue(alpha1)
        _ = machine.upstreamOpenFailed(alpha2, error: .network("refused"))
        let alpha3 = UpstreamID(broker: "alpha", generation: 3)
        _ = machine.reconnectDue(alpha2)
        _ = machine.upstreamOpened(alpha3, at: .seconds(100))
        #expect(machine.attempt(of: "alpha") == 2)

        let ended = machine.upstreamEnded(alpha3, error: .network("reset"), at: .seconds(100) + lifetime)

        #expect(ended.contains(.publishBrokerState(broker: "alpha", .reconnecting(attempt: expectedAttempt, reason: "network error: reset"))), "\(ended)")
        #expect(machine.attempt(of: "alpha") == expectedAttempt)
    }

    /// An undecodable frame is counted per broker and published; the session stays open and live.
    @Test func skippedFramesAreCountedPerBrokerAndTheSessionGoesOn() {
        var machine = openMachine(["AAPL"])
        _ = machine.upstreamReceived(.live, from: alpha1)

        #expect(machine.upstreamReceived(.skippedFrame(reason: "malformed JSON at byte 1"), from: alpha1) == [.publishSkippedFrames(broker: "alpha", count: 1)])
        #expect(machine.upstreamReceived(.skippedFrame(reason: "malformed JSON at byte 7"), from: alpha1) == [.publishSkippedFrames(broker: "alpha", count: 2)])
        #expect(machine.upstreamReceived(.skippedFrame(reason: "x"), from: beta1) == [.publishSkippedFrames(broker: "beta", count: 1)])

        #expect(machine.state(of: "alpha") == .live)
        #expect(machine.upstreamReceived(.quote(quote("AAPL", 190)), from: alpha1) == [.publishQuote(key("alpha", "AAPL"), quote("AAPL", 190))])
        #expect(machine.skippedFrameCount(of: "alpha") == 2)
        #expect(machine.skippedFrameCount(of: "beta") == 1)
        // A stale session's frames are not counted.
        #expect(machine.upstreamReceived(.skippedFrame(reason: "late"), from: UpstreamID(broker: "alpha", generation: 0)) == [])
    }

    /// Finnhub and Tradier report live as soon as the socket opens; a server that accepts and then drops
    /// every connection must still see the backoff grow, not a reconnect every half second.
    @Test func liveWithoutAQuoteDoesNotResetTheBackoff() {
        var machine = openMachine(["AAPL"])
        var id = alpha1
        for attempt in 1...4 {
            _ = machine.upstreamReceived(.live, from: id)
            let ended = machine.upstreamEnded(id, error: .network("reset"), at: .zero)
            let delay = BackoffPolicy(initial: .seconds(1), multiplier: 2, maximum: .seconds(4), jitter: 0).delay(attempt: attempt)
            #expect(ended.contains(.scheduleReconnect(id, attempt: attempt, delay: delay)), "attempt \(attempt): \(ended)")
            let next = UpstreamID(broker: "alpha", generation: id.generation + 1)
            #expect(machine.reconnectDue(id) == [.openUpstream(next)])
            _ = machine.upstreamOpened(next, at: .zero)
            id = next
        }
    }

    /// After a working connection drops, the broker may still count it: a connection limit is then retried
    /// at the longest delay a few times before it counts as permanent. Before any delivery it is permanent.
    @Test func aConnectionLimitAfterOurOwnDropIsRetriedSlowlyThenGivenUp() {
        var machine = openMachine(["AAPL"])
        _ = machine.upstreamReceived(.quote(quote("AAPL", 190)), from: alpha1)
        _ = machine.upstreamEnded(alpha1, error: .network("reset"), at: .zero)
        var id = UpstreamID(broker: "alpha", generation: 2)
        _ = machine.reconnectDue(alpha1)
        let limit = BrokerError.limitExceeded("one connection per key")
        for attempt in 2...HubStateMachine.connectionLimitRetries {
            let refused = machine.upstreamOpenFailed(id, error: limit)
            #expect(refused.contains(.scheduleReconnect(id, attempt: attempt, delay: .seconds(4))), "\(refused)")
            let next = UpstreamID(broker: "alpha", generation: id.generation + 1)
            _ = machine.reconnectDue(id)
            id = next
        }
        #expect(machine.upstreamOpenFailed(id, error: limit) == [
            .publishBrokerState(broker: "alpha", .failed(reason: limit.description)),
        ])

        var fresh = openMachine(["AAPL"])
        #expect(fresh.upstreamEnded(alpha1, error: limit, at: .zero).contains(.publishBrokerState(broker: "alpha", .failed(reason: limit.description))))
    }

    /// The attempt count no longer drops to zero on a quote, but a connection limit right after a working
    /// session (young or not) is still blamed on that session a few times before it counts as permanent.
    @Test func aConnectionLimitAfterAYoungSessionAfterEarlierFailuresIsStillRetried() {
        var machine = openMachine(["AAPL"])
        var id = alpha1
        for _ in 1...4 {
            _ = machine.upstreamEnded(id, error: .network("reset"), at: .zero)
            _ = machine.reconnectDue(id)
            id = UpstreamID(broker: "alpha", generation: id.generation + 1)
            _ = machine.upstreamOpened(id, at: .zero)
        }
        _ = machine.upstreamReceived(.quote(quote("AAPL", 190)), from: id)
        _ = machine.upstreamEnded(id, error: .network("reset"), at: .seconds(1))
        #expect(machine.attempt(of: "alpha") == 5)
        _ = machine.reconnectDue(id)
        id = UpstreamID(broker: "alpha", generation: id.generation + 1)

        let limit = BrokerError.limitExceeded("one connection per key")
        #expect(machine.upstreamOpenFailed(id, error: limit).contains(.scheduleReconnect(id, attempt: 6, delay: .seconds(4))))
    }

    @Test func permanentErrorFailsTheBrokerWithoutRetrying() {
        var machine = makeMachine(brokers: ["alpha"])
        _ = machine.addSubscriber(1, symbols: ["AAPL"])
        let error = BrokerError.unauthorized(hint: "check ALPHA_TOKEN")
        #expect(machine.upstreamOpenFailed(alpha1, error: error) == [
            .publishBrokerState(broker: "alpha", .failed(reason: "unauthorized, check ALPHA_TOKEN")),
        ])
        // More demand does not hammer the broker...
        #expect(machine.setSymbols(["AAPL", "MSFT"], for: 1) == [.follow(1, keys: keys(["MSFT"], brokers: ["alpha"]), replay: MarketUpdate())])
        #expect(machine.reconnectDue(alpha1) == [])
        // ...but demand dropping to zero and coming back is the user acting: try afresh.
        _ = machine.removeSubscriber(1)
        let alpha2 = UpstreamID(broker: "alpha", generation: 2)
        let retry = machine.addSubscriber(2, symbols: ["AAPL"])
        #expect(retry.contains(.publishBrokerState(broker: "alpha", .connecting)))
        #expect(retry.contains(.openUpstream(alpha2)))
    }

    /// A refused certificate stops the retries with the reason the footer shows (issue 13: it was
    /// `reconnecting 7`, `reconnecting 8`, … forever).
    @Test(arguments: ["certificate not trusted (set tls.caFile)", "certificate does not match host ws.example.test"])
    func aRejectedCertificateFailsTheBrokerWithoutRetrying(reason: String) {
        var machine = makeMachine(brokers: ["alpha"])
        _ = machine.addSubscriber(1, symbols: ["AAPL"])
        #expect(machine.upstreamOpenFailed(alpha1, error: .certificateRejected(reason)) == [
            .publishBrokerState(broker: "alpha", .failed(reason: reason)),
        ])
        #expect(machine.reconnectDue(alpha1) == [])
        #expect(machine.state(of: "alpha") == .failed(reason: reason))
    }

    @Test func permanentStreamErrorAlsoFails() {
        var machine = openMachine(["AAPL"])
        let actions = machine.upstreamEnded(beta1, error: .limitExceeded("2 sessions"), at: .zero)
        #expect(actions == [.closeUpstream(beta1), .publishBrokerState(broker: "beta", .failed(reason: "limit exceeded: 2 sessions"))])
    }

    @Test func eventsOfStaleGenerationsAreIgnored() {
        var machine = openMachine(["AAPL"])
        _ = machine.upstreamEnded(alpha1, error: .network("reset"), at: .zero)
        let alpha2 = UpstreamID(broker: "alpha", generation: 2)
        _ = machine.reconnectDue(alpha1)

        #expect(machine.upstreamReceived(.quote(quote("AAPL", 9)), from: alpha1) == [])
        #expect(machine.upstreamReceived(.live, from: alpha1) == [])
        #expect(machine.upstreamEnded(alpha1, error: .network("late"), at: .zero) == [])
        #expect(machine.upstreamOpenFailed(alpha1, error: .network("late")) == [])
        #expect(machine.reconnectDue(alpha1) == [])
        // A session that opens for a superseded attempt is closed, not used.
        #expect(machine.upstreamOpened(alpha1, at: .zero) == [.closeUpstream(alpha1)])
        #expect(machine.cachedQuote(key("alpha", "AAPL")) == nil)
        #expect(machine.upstreamOpened(alpha2, at: .zero) == [.subscribeUpstream(alpha2, ["AAPL"])])
    }

    @Test func demandEndingWhileWaitingToReconnectCancelsTheReconnect() {
        var machine = openMachine(["AAPL"])
        _ = machine.upstreamEnded(alpha1, error: .network("reset"), at: .zero)
        let actions = machine.removeSubscriber(1)
        #expect(actions.contains(.cancelReconnect(broker: "alpha")))
        #expect(machine.reconnectDue(alpha1) == [])
    }

    @Test func sessionOpeningAfterDemandEndedIsClosed() {
        var machine = makeMachine(brokers: ["alpha"])
        _ = machine.addSubscriber(1, symbols: ["AAPL"])
        _ = machine.removeSubscriber(1)
        #expect(machine.upstreamOpened(alpha1, at: .zero) == [.closeUpstream(alpha1)])
    }

    @Test func jitterIsDeterministicPerSeedAndWithinBounds() {
        func delays(seed: UInt64) -> [Duration] {
            var machine = Machine(brokers: ["alpha"], backoff: BackoffPolicy(initial: .seconds(10), multiplier: 1, maximum: .seconds(10), jitter: 0.5), randomSeed: seed)
            _ = machine.addSubscriber(1, symbols: ["AAPL"])
            var id = UpstreamID(broker: "alpha", generation: 1)
            var result: [Duration] = []
            for _ in 0..<8 {
                for case .scheduleReconnect(_, _, let delay) in machine.upstreamOpenFailed(id, error: .server(status: 503)) {
                    result.append(delay)
                }
                _ = machine.reconnectDue(id)
                id.generation += 1
            }
            return result
        }
        let first = delays(seed: 42)
        #expect(first.count == 8)
        #expect(first == delays(seed: 42))
        #expect(first != delays(seed: 43))
        #expect(first.allSatisfy { $0 > .seconds(5) && $0 <= .seconds(10) })
        #expect(Set(first).count > 1)
    }

    @Test func shutdownFinishesSubscribersAndClosesEverything() {
        var machine = openMachine(["AAPL"])
        _ = machine.upstreamEnded(beta1, error: .network("reset"), at: .zero)
        let actions = machine.shutdown()
        #expect(actions == [.finishSubscriber(1), .closeUpstream(alpha1), .cancelReconnect(broker: "beta")])
        #expect(machine.addSubscriber(2, symbols: ["AAPL"]) == [.finishSubscriber(2)])
        #expect(machine.upstreamOpened(UpstreamID(broker: "alpha", generation: 2), at: .zero) == [.closeUpstream(UpstreamID(broker: "alpha", generation: 2))])
        #expect(machine.shutdown() == [])
    }
}

@Suite struct BackoffPolicyTests {
    @Test func growsByTheMultiplierUpToTheCap() {
        let policy = BackoffPolicy(initial: .milliseconds(500), multiplier: 2, maximum: .seconds(30), jitter: 0)
        #expect((1...8).map { policy.delay(attempt: $0) } == [
            .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30), .seconds(30),
        ])
        #expect(policy.delay(attempt: Int.max) == .seconds(30))
    }

    @Test func jitterShortensByAtMostItsFraction() {
        let policy = BackoffPolicy(initial: .seconds(10), multiplier: 2, maximum: .seconds(10), jitter: 0.2)
        #expect(policy.delay(attempt: 1, unitRandom: 0) == .seconds(10))
        #expect(policy.delay(attempt: 1, unitRandom: 0.5) == .seconds(9))
        #expect(policy.delay(attempt: 1, unitRandom: 0.999_999) >= .seconds(8))
    }
}

extension HubStateMachine {
    /// The actions for one upstream event, as an array: the tests' view of the one entry point.
    mutating func upstreamReceived(_ event: QuoteEvent, from id: UpstreamID) -> [Action] {
        var actions: [Action] = []
        upstreamReceived(event, from: id, into: &actions)
        return actions
    }
}
