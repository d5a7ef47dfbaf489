import TestSupport
import Domain
import Foundation
import Testing

@testable import MarketDataHub

/// A quote at `last` whole dollars, stamped `last` seconds after a fixed instant.
private func quote(_ symbol: String, _ last: Int) -> CommonQuote {
    CommonQuote(symbol: symbol, last: ExactDecimal(last), timestamp: Date(timeIntervalSince1970: 1_700_000_000 + TimeInterval(last)))
}

/// The next batch of a subscription, failing the test instead of hanging when none comes.
private func nextBatch(_ subscription: MarketFeedSubscription) async throws -> MarketUpdate {
    try await withTimeout("a batch") {
        var iterator = subscription.updates.makeAsyncIterator()
        return await iterator.next()
    }
}

/// Reads batches, merging them as a store would, until `condition` holds for the merged view.
private func merged(
    _ subscription: MarketFeedSubscription, until condition: @escaping @Sendable (MarketUpdate) -> Bool
) async throws -> MarketUpdate {
    try await withTimeout("a matching batch") {
        var view = MarketUpdate()
        for await batch in subscription.updates {
            view.quotes.merge(batch.quotes) { $1 }
            view.failures.merge(batch.failures) { $1 }
            view.brokerStates.merge(batch.brokerStates) { $1 }
            view.skippedFrames.merge(batch.skippedFrames) { $1 }
            if condition(view) { return view }
        }
        return nil
    }
}

@Suite struct MarketDataHubTests {
    let alpha = FakeStreamingBroker(id: "alpha")
    let beta = FakeStreamingBroker(id: "beta")
    let clock = ManualClock()

    func makeHub(_ brokers: [FakeStreamingBroker]) -> MarketDataHub {
        MarketDataHub(
            services: brokers.map(\.service), clock: clock,
            backoff: BackoffPolicy(initial: .seconds(1), multiplier: 2, maximum: .seconds(8), jitter: 0), randomSeed: 7
        )
    }

    @Test func brokersKeepTheOrderGiven() {
        #expect(makeHub([beta, alpha]).brokers.map(\.id) == ["beta", "alpha"])
    }

    @Test func slowSubscriberGetsOneBatchEndingOnTheNewestQuote() async throws {
        let hub = makeHub([alpha])
        let slow = await hub.subscribe(symbols: ["AAPL"])
        let session = try await alpha.nextSession()
        #expect(try await session.nextCall() == .subscribe(["AAPL"]))
        #expect(try await nextBatch(slow) == MarketUpdate(brokerStates: ["alpha": .connecting]))

        // A second subscriber reading everything tells the test when the hub has taken the last quote.
        let probe = await hub.subscribe(symbols: ["AAPL"])
        let key = QuoteKey(brandID: "alpha", symbol: "AAPL")
        for price in 1...1_000 { session.send(.quote(quote("AAPL", price))) }
        _ = try await merged(probe) { $0.quotes[key]?.last == 1_000 }

        let conflated = try await nextBatch(slow)
        #expect(conflated == MarketUpdate(quotes: [key: quote("AAPL", 1_000)], brokerStates: ["alpha": .live]))
        // Nothing else was queued behind it: the very next batch holds only the next quote.
        session.send(.quote(quote("AAPL", 1_001)))
        #expect(try await nextBatch(slow) == MarketUpdate(quotes: [key: quote("AAPL", 1_001)]))
        await hub.shutdown()
    }

    /// A subscriber of more keys than `SubscriberMailbox.changeLogThreshold` (its batches visit the logged
    /// slots only) ends on every key's newest quote, through a slow read and more symbols added.
    @Test func aSubscriberOfManyKeysEndsOnEveryKeysNewestQuote() async throws {
        let hub = makeHub([alpha])
        let first = (0..<SubscriberMailbox.changeLogThreshold + 10).map { "S\($0)" }
        let subscription = await hub.subscribe(symbols: Set(first))
        let session = try await alpha.nextSession()
        _ = try await session.nextCall()
        for round in 1...3 {
            for symbol in first { session.send(.quote(quote(symbol, round))) }
        }
        let seen = try await merged(subscription) { view in first.allSatisfy { view.quotes[QuoteKey(brandID: "alpha", symbol: $0)]?.last == 3 } }
        #expect(seen.quotes.count == first.count)

        let added = (0..<20).map { "T\($0)" }
        await subscription.setSymbols(Set(first + added))
        _ = try await session.nextCall()
        for symbol in added + first.suffix(5) { session.send(.quote(quote(symbol, 4))) }
        let after = try await merged(subscription) { view in
            (added + first.suffix(5)).allSatisfy { view.quotes[QuoteKey(brandID: "alpha", symbol: $0)]?.last == 4 }
        }
        #expect(after.quotes.count == 25, "only the keys quoted since")
        await hub.shutdown()
    }

    /// Undecodable frames are counted per broker and reach subscribers; the session is neither closed
    /// nor replaced.
    @Test func skippedFramesReachSubscribersAsAPerBrokerCount() async throws {
        let hub = makeHub([alpha])
        let subscription = await hub.subscribe(symbols: ["AAPL"])
        let session = try await alpha.nextSession()
        #expect(try await session.nextCall() == .subscribe(["AAPL"]))
        let key = QuoteKey(brandID: "alpha", symbol: "AAPL")

        for offset in 0..<3 { session.send(.skippedFrame(reason: "malformed JSON at byte \(offset)")) }
        session.send(.quote(quote("AAPL", 1)))
        let view = try await merged(subscription) { $0.quotes[key] != nil }

        #expect(view.skippedFrames == ["alpha": 3])
        #expect(view.brokerStates["alpha"] == .live)
        #expect(session.recordedCalls == [.subscribe(["AAPL"])])
        #expect(alpha.openCount == 1)
        await hub.shutdown()
    }

    @Test func cancellingTheConsumingTaskReleasesUpstreamDemand() async throws {
        let hub = makeHub([alpha])
        let keeper = await hub.subscribe(symbols: ["MSFT"])
        let session = try await alpha.nextSession()
        #expect(try await session.nextCall() == .subscribe(["MSFT"]))
        let leaver = await hub.subscribe(symbols: ["AAPL", "MSFT"])
        #expect(try await session.nextCall() == .subscribe(["AAPL"]))

        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let consumer = Task {
            var batches = 0
            for await _ in leaver.updates {
                batches += 1
                startedSignal.yield()
            }
            return batches
        }
        _ = try await withTimeout("the consumer's first batch") {
            var iterator = started.makeAsyncIterator()
            return await iterator.next()
        }
        consumer.cancel()
        #expect(await consumer.value == 1)
        #expect(try await session.nextCall() == .unsubscribe(["AAPL"]))

        // The other subscriber still follows MSFT; when it cancels too, the session closes.
        await keeper.cancel()
        #expect(try await session.nextCall() == .unsubscribe(["MSFT"]))
        #expect(try await session.nextCall() == .close)
        #expect(try await withTimeout("the end of the cancelled stream") { () -> Bool? in
            for await _ in keeper.updates {}
            return true
        })
    }

    @Test func droppingASubscriptionWithoutReadingReleasesItsDemand() async throws {
        let hub = makeHub([alpha])
        let keeper = await hub.subscribe(symbols: ["MSFT"])
        let session = try await alpha.nextSession()
        #expect(try await session.nextCall() == .subscribe(["MSFT"]))
        do {
            _ = await hub.subscribe(symbols: ["AAPL"])
        }
        let calls = [try await session.nextCall(), try await session.nextCall()]
        #expect(calls == [.subscribe(["AAPL"]), .unsubscribe(["AAPL"])])
        await keeper.cancel()
    }

    @Test func aPolledBrokerThatWorksIsShownAsPollingNotLive() async throws {
        let hub = MarketDataHub(services: [alpha.service(polled: true)], clock: clock)
        let subscription = await hub.subscribe(symbols: ["AAPL"])
        let session = try await alpha.nextSession()
        #expect(try await session.nextCall() == .subscribe(["AAPL"]))
        session.send(.live)
        let update = try await merged(subscription) { $0.brokerStates["alpha"] != nil && $0.brokerStates["alpha"] != .connecting }
        #expect(update.brokerStates["alpha"] == .polling)
        await subscription.cancel()
    }

    @Test func droppedUpstreamReconnectsAfterBackoffAndResubscribes() async throws {
        let hub = makeHub([alpha])
        let subscription = await hub.subscribe(symbols: ["AAPL"])
        let first = try await alpha.nextSession()
        #expect(try await first.nextCall() == .subscribe(["AAPL"]))
        first.send(.live)
        _ = try await merged(subscription) { $0.brokerStates["alpha"] == .live }

        first.drop(throwing: BrokerError.network("connection reset"))
        let reconnecting = BrokerConnectionState.reconnecting(attempt: 1, reason: "network error: connection reset")
        _ = try await merged(subscription) { $0.brokerStates["alpha"] == reconnecting }
        #expect(try await first.nextCall() == .close)

        // Demand added while the broker is down is subscribed on the new session.
        await subscription.setSymbols(["AAPL", "MSFT"])
        try await withTimeout("the reconnect sleep") { () -> Bool? in
            #expect(await clock.sleepers(atLeast: 1), "nothing went to sleep on the clock")
            return true
        }
        #expect(clock.pendingDeadlines.map(\.offset) == [.seconds(1)])
        #expect(alpha.openCount == 1)
        clock.advance(by: .seconds(1))

        let second = try await alpha.nextSession()
        #expect(try await second.nextCall() == .subscribe(["AAPL", "MSFT"]))
        #expect(alpha.openCount == 2)
        second.send(.quote(quote("MSFT", 410)))
        // The quote makes the broker live, but the state and the quote are published one after the other
        // and a batch may be drained between them (seen under TSan): wait for both.
        let msft = QuoteKey(brandID: "alpha", symbol: "MSFT")
        let live = try await merged(subscription) { $0.brokerStates["alpha"] == .live && $0.quotes[msft] != nil }
        #expect(live.quotes[msft]?.last == 410)
        await hub.shutdown()
        #expect(second.recordedCalls.last == .close)
    }

    @Test func failedOpensBackOffLongerEachTime() async throws {
        alpha.failNextOpens(with: .network("refused"), .server(status: 503))
        let hub = makeHub([alpha])
        let subscription = await hub.subscribe(symbols: ["AAPL"])
        for (attempt, delay) in [(1, Duration.seconds(1)), (2, .seconds(2))] {
            _ = try await merged(subscription) {
                if case .reconnecting(attempt, _) = $0.brokerStates["alpha"] { true } else { false }
            }
            try await withTimeout("reconnect sleep \(attempt)") { () -> Bool? in
                #expect(await clock.sleepers(atLeast: 1), "nothing went to sleep on the clock")
                return true
            }
            #expect(clock.pendingDeadlines.map(\.offset) == [clock.now.offset + delay])
            clock.advance(by: delay)
        }
        let session = try await alpha.nextSession()
        #expect(try await session.nextCall() == .subscribe(["AAPL"]))
        #expect(alpha.openCount == 3)
        await hub.shutdown()
    }

    /// Issue 13: sessions that die young keep the backoff growing even when they delivered quotes; one
    /// that lived `healthyLifetime` on the hub's clock starts it afresh.
    @Test func sessionsThatDieYoungKeepTheBackoffGrowingAndALongLivedOneResetsIt() async throws {
        let hub = makeHub([alpha])
        let subscription = await hub.subscribe(symbols: ["AAPL"])
        func reconnectIsScheduled(attempt: Int, after delay: Duration) async throws {
            _ = try await merged(subscription) {
                if case .reconnecting(attempt, _) = $0.brokerStates["alpha"] { true } else { false }
            }
            try await withTimeout("reconnect sleep \(attempt)") { () -> Bool? in
                #expect(await clock.sleepers(atLeast: 1), "nothing went to sleep on the clock")
                return true
            }
            #expect(clock.pendingDeadlines.map(\.offset) == [clock.now.offset + delay], "attempt \(attempt)")
        }

        for (attempt, delay) in [(1, Duration.seconds(1)), (2, .seconds(2)), (3, .seconds(4))] {
            let session = try await alpha.nextSession()
            #expect(try await session.nextCall() == .subscribe(["AAPL"]))
            session.send(.quote(quote("AAPL", attempt)))
            clock.advance(by: .seconds(5))
            session.drop(throwing: BrokerError.network("reset"))
            try await reconnectIsScheduled(attempt: attempt, after: delay)
            clock.advance(by: delay)
        }

        let longLived = try await alpha.nextSession()
        #expect(try await longLived.nextCall() == .subscribe(["AAPL"]))
        clock.advance(by: BackoffPolicy().healthyLifetime)
        longLived.drop(throwing: BrokerError.network("reset"))
        try await reconnectIsScheduled(attempt: 1, after: .seconds(1))
        #expect(alpha.openCount == 4)
        await hub.shutdown()
    }

    @Test func lateSubscriberFirstBatchReplaysTheCache() async throws {
        let hub = makeHub([alpha, beta])
        let early = await hub.subscribe(symbols: ["AAPL", "ZZZZ"])
        let alphaSession = try await alpha.nextSession()
        let betaSession = try await beta.nextSession()
        alphaSession.send(.quote(quote("AAPL", 190)))
        betaSession.send(.live)
        betaSession.send(.symbolFailed("ZZZZ", .unknownSymbol("ZZZZ")))
        let aapl = QuoteKey(brandID: "alpha", symbol: "AAPL")
        let zzzz = QuoteKey(brandID: "beta", symbol: "ZZZZ")
        _ = try await merged(early) { $0.quotes[aapl] != nil && $0.failures[zzzz] != nil }

        let late = await hub.subscribe(symbols: ["AAPL", "ZZZZ", "IBM"])
        #expect(try await nextBatch(late) == MarketUpdate(
            quotes: [aapl: quote("AAPL", 190)],
            failures: [zzzz: .unknownSymbol("ZZZZ")],
            brokerStates: ["alpha": .live, "beta": .live]
        ))
        // Only the symbol new to the hub goes upstream.
        #expect(try await alphaSession.nextCall() == .subscribe(["AAPL", "ZZZZ"]))
        #expect(try await alphaSession.nextCall() == .subscribe(["IBM"]))

        // A symbol added later replays at once too.
        let third = await hub.subscribe(symbols: [])
        _ = try await nextBatch(third)
        await third.setSymbols(["AAPL"])
        #expect(try await nextBatch(third) == MarketUpdate(quotes: [aapl: quote("AAPL", 190)]))
        await hub.shutdown()
    }

    @Test func brokerStatesReachEverySubscriber() async throws {
        beta.failNextOpens(with: .unauthorized(hint: "check BETA_TOKEN"))
        let hub = makeHub([alpha, beta])
        let first = await hub.subscribe(symbols: ["AAPL"])
        let second = await hub.subscribe(symbols: [])
        let session = try await alpha.nextSession()
        session.send(.live)
        let expected: [String: BrokerConnectionState] = ["alpha": .live, "beta": .failed(reason: "unauthorized, check BETA_TOKEN")]
        for subscription in [first, second] {
            _ = try await merged(subscription) { $0.brokerStates == expected }
        }
        // A permanent error is not retried.
        #expect(clock.sleeperCount == 0)
        #expect(beta.openCount == 1)
        await hub.shutdown()
    }

    @Test func shutdownClosesSessionsAndFinishesStreams() async throws {
        let hub = makeHub([alpha])
        let subscription = await hub.subscribe(symbols: ["AAPL"])
        let session = try await alpha.nextSession()
        await hub.shutdown()
        #expect(session.recordedCalls.last == .close)
        let batches = try await withTimeout("the end of the stream") { () -> Int? in
            var count = 0
            for await _ in subscription.updates { count += 1 }
            return count
        }
        #expect(batches <= 1)
        let late = await hub.subscribe(symbols: ["AAPL"])
        #expect(try await withTimeout("a finished stream") { () -> Bool? in
            for await _ in late.updates {}
            return true
        })
    }
}
