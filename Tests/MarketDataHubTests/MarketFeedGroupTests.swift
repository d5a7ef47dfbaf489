import Locking
import TestSupport
import Domain
import Foundation
import Testing

@testable import MarketDataHub

/// A quote at `last` whole dollars, stamped `last` seconds after a fixed instant.
private func quote(_ symbol: String, _ last: Int) -> CommonQuote {
    CommonQuote(symbol: symbol, last: ExactDecimal(last), timestamp: Date(timeIntervalSince1970: 1_700_000_000 + TimeInterval(last)))
}

private func key(_ symbol: String) -> QuoteKey { QuoteKey(brandID: "alpha", symbol: symbol) }

/// Everything one member was called with, in order.
private final class MemberLog: Sendable {
    private let calls = Locked<[(key: QuoteKey, change: Result<CommonQuote, BrokerError>)]>([])

    var record: @Sendable (QuoteKey, Result<CommonQuote, BrokerError>) -> Void {
        { [self] key, change in calls.withLock { $0.append((key, change)) } }
    }

    var keys: Set<QuoteKey> { Set(calls.withLock { $0.map(\.key) }) }
    var quotes: [CommonQuote] { calls.withLock { $0.compactMap { try? $0.change.get() } } }
    func last(_ symbol: String) -> CommonQuote? { quotes.last { $0.symbol == symbol } }
}

/// Reads the group's batches until `condition` holds; fails the test instead of hanging.
private func read(_ group: MarketFeedGroup, until condition: @escaping @Sendable () -> Bool) async throws {
    try await withTimeout("a group batch") {
        for await _ in group.updates where condition() { return true }
        return nil
    }
}

/// The group's next batch.
private func nextBatch(_ group: MarketFeedGroup) async throws -> MarketUpdate {
    try await withTimeout("a group batch") {
        var iterator = group.updates.makeAsyncIterator()
        return await iterator.next()
    }
}

/// Reads a plain subscription until it holds `last` for `symbol`: proof that the hub has taken the quote.
private func waitForHub(_ subscription: MarketFeedSubscription, _ symbol: String, _ last: Int) async throws {
    try await withTimeout("the hub to take \(symbol) at \(last)") {
        for await batch in subscription.updates where batch.quotes[key(symbol)]?.last == ExactDecimal(last) { return true }
        return nil
    }
}

@Suite struct MarketFeedGroupTests {
    let alpha = FakeStreamingBroker(id: "alpha")

    func makeHub() -> MarketDataHub {
        MarketDataHub(
            services: [alpha.service], clock: ManualClock(),
            backoff: BackoffPolicy(initial: .seconds(1), multiplier: 2, maximum: .seconds(8), jitter: 0), randomSeed: 7)
    }

    @Test func demandCountsEveryMemberOnItsOwn() async throws {
        let hub = makeHub()
        let group = await hub.subscribeGroup()
        let first = await group.join(symbols: ["AAPL"]) { _, _ in }
        let session = try await alpha.nextSession()
        #expect(try await session.nextCall() == .subscribe(["AAPL"]))
        let second = await group.join(symbols: ["AAPL", "MSFT"]) { _, _ in }
        #expect(try await session.nextCall() == .subscribe(["MSFT"]))
        // `second` still follows AAPL: the upstream keeps it.
        await first.leave()
        await second.setSymbols(["MSFT"])
        #expect(try await session.nextCall() == .unsubscribe(["AAPL"]))
        await second.leave()
        #expect(try await session.nextCall() == .unsubscribe(["MSFT"]))
        #expect(try await session.nextCall() == .close)
        await hub.shutdown()
    }

    @Test func aGroupAndAPlainSubscriberShareDemand() async throws {
        let hub = makeHub()
        let solo = await hub.subscribe(symbols: ["AAPL"])
        let session = try await alpha.nextSession()
        #expect(try await session.nextCall() == .subscribe(["AAPL"]))
        let group = await hub.subscribeGroup()
        let member = await group.join(symbols: ["AAPL", "MSFT"]) { _, _ in }
        #expect(try await session.nextCall() == .subscribe(["MSFT"]))
        await member.leave()
        #expect(try await session.nextCall() == .unsubscribe(["MSFT"]))
        await solo.cancel()
        #expect(try await session.nextCall() == .unsubscribe(["AAPL"]))
        await hub.shutdown()
    }

    @Test func eachMemberGetsTheNewestValueOfItsOwnSymbolsOnly() async throws {
        let hub = makeHub()
        let group = await hub.subscribeGroup()
        let (apple, both, microsoft) = (MemberLog(), MemberLog(), MemberLog())
        _ = await group.join(symbols: ["AAPL"], receive: apple.record)
        _ = await group.join(symbols: ["AAPL", "MSFT"], receive: both.record)
        _ = await group.join(symbols: ["MSFT"], receive: microsoft.record)
        let session = try await alpha.nextSession()
        _ = try await session.nextCall()
        let probe = await hub.subscribe(symbols: ["AAPL", "MSFT"])
        session.send(.quote(quote("AAPL", 1)))
        session.send(.quote(quote("MSFT", 2)))
        try await waitForHub(probe, "MSFT", 2)

        let batch = try await nextBatch(group)
        // The group's own batch holds the union, broker states included, for a store every member reads.
        #expect(batch.quotes == [key("AAPL"): quote("AAPL", 1), key("MSFT"): quote("MSFT", 2)])
        #expect(batch.brokerStates["alpha"] == .live)
        #expect(apple.quotes == [quote("AAPL", 1)])
        #expect(microsoft.quotes == [quote("MSFT", 2)])
        #expect(both.keys == [key("AAPL"), key("MSFT")])
        #expect(both.quotes.count == 2)
        await hub.shutdown()
    }

    @Test func aMemberThatIsNotReadForAThousandQuotesGetsOnlyTheNewest() async throws {
        let hub = makeHub()
        let group = await hub.subscribeGroup()
        let log = MemberLog()
        _ = await group.join(symbols: ["AAPL"], receive: log.record)
        let session = try await alpha.nextSession()
        _ = try await session.nextCall()
        let probe = await hub.subscribe(symbols: ["AAPL"])
        for price in 1...1_000 { session.send(.quote(quote("AAPL", price))) }
        try await waitForHub(probe, "AAPL", 1_000)

        let batch = try await nextBatch(group)
        #expect(batch.quotes == [key("AAPL"): quote("AAPL", 1_000)])
        #expect(log.quotes == [quote("AAPL", 1_000)])
        // Nothing was queued behind it.
        session.send(.quote(quote("AAPL", 1_001)))
        #expect(try await nextBatch(group).quotes == [key("AAPL"): quote("AAPL", 1_001)])
        #expect(log.quotes == [quote("AAPL", 1_000), quote("AAPL", 1_001)])
        await hub.shutdown()
    }

    @Test func aMemberRemovedMidBatchIsNotCalledAgain() async throws {
        let hub = makeHub()
        let group = await hub.subscribeGroup()
        let victim = Locked<MarketFeedGroupMember?>(nil)
        let (first, second) = (MemberLog(), MemberLog())
        let record = first.record
        // The first member, called first, removes the second in the middle of the batch: what `leave()`
        // does before it awaits the hub.
        _ = await group.join(symbols: ["AAPL"]) { key, change in
            record(key, change)
            victim.withLock { $0 }?.deactivate()
        }
        let removed = await group.join(symbols: ["AAPL"], receive: second.record)
        victim.withLock { $0 = removed }
        let session = try await alpha.nextSession()
        _ = try await session.nextCall()
        let probe = await hub.subscribe(symbols: ["AAPL"])
        session.send(.quote(quote("AAPL", 1)))
        try await waitForHub(probe, "AAPL", 1)
        _ = try await nextBatch(group)
        #expect(first.quotes == [quote("AAPL", 1)])
        #expect(second.quotes == [])

        // Its leave completes; the first member still follows AAPL, so the upstream keeps it.
        await removed.leave()
        session.send(.quote(quote("AAPL", 2)))
        try await read(group) { first.last("AAPL") == quote("AAPL", 2) }
        #expect(second.quotes == [])
        await probe.cancel()
        #expect(session.recordedCalls == [.subscribe(["AAPL"])])
        await hub.shutdown()
    }

    @Test func aMemberThatLeavesWhileABatchIsOwedGetsNoneOfIt() async throws {
        let hub = makeHub()
        let group = await hub.subscribeGroup()
        let (staying, leaving) = (MemberLog(), MemberLog())
        _ = await group.join(symbols: ["AAPL"], receive: staying.record)
        let member = await group.join(symbols: ["AAPL", "MSFT"], receive: leaving.record)
        let session = try await alpha.nextSession()
        _ = try await session.nextCall()
        let probe = await hub.subscribe(symbols: ["AAPL"])
        session.send(.quote(quote("AAPL", 1)))
        try await waitForHub(probe, "AAPL", 1)
        await member.leave()
        #expect(try await session.nextCall() == .unsubscribe(["MSFT"]))
        _ = try await nextBatch(group)
        #expect(staying.quotes == [quote("AAPL", 1)])
        #expect(leaving.quotes == [])
        await hub.shutdown()
    }

    @Test func cancellingTheGroupReleasesEveryMembersDemandAndEndsItsBatches() async throws {
        let hub = makeHub()
        let group = await hub.subscribeGroup()
        let log = MemberLog()
        _ = await group.join(symbols: ["AAPL"], receive: log.record)
        let session = try await alpha.nextSession()
        #expect(try await session.nextCall() == .subscribe(["AAPL"]))
        let solo = await hub.subscribe(symbols: ["MSFT"])
        #expect(try await session.nextCall() == .subscribe(["MSFT"]))
        let owed = MemberLog()
        _ = await group.join(symbols: ["MSFT", "TSLA"], receive: owed.record)
        #expect(try await session.nextCall() == .subscribe(["TSLA"]))
        session.send(.quote(quote("MSFT", 1)))
        try await waitForHub(solo, "MSFT", 1)

        await group.cancel()
        #expect(try await session.nextCall() == .unsubscribe(["AAPL", "TSLA"]))
        // The batches end once what was owed is taken; no member is called with it.
        try await withTimeout("the group's batches to end") {
            for await _ in group.updates {}
            return true
        }
        #expect(owed.quotes == [])
        // A member that joins an ended group changes no demand: the next call is the solo subscriber's.
        let late = await group.join(symbols: ["NVDA"], receive: log.record)
        await late.setSymbols(["NVDA", "AMD"])
        await solo.setSymbols(["MSFT", "IBM"])
        #expect(try await session.nextCall() == .subscribe(["IBM"]))
        await hub.shutdown()
    }

    @Test func droppingTheGroupReleasesItsDemand() async throws {
        let hub = makeHub()
        var group: MarketFeedGroup? = await hub.subscribeGroup()
        let member = await group?.join(symbols: ["AAPL"]) { _, _ in }
        let session = try await alpha.nextSession()
        #expect(try await session.nextCall() == .subscribe(["AAPL"]))
        group = nil
        #expect(try await session.nextCall() == .unsubscribe(["AAPL"]))
        #expect(try await session.nextCall() == .close)
        // The member's handle outlives its group and does nothing.
        await member?.leave()
        await hub.shutdown()
    }

    @Test func aMemberJoiningAFollowedSymbolStartsFromTheNewestValueAndNeverEndsStale() async throws {
        let hub = makeHub()
        let group = await hub.subscribeGroup()
        let (early, late) = (MemberLog(), MemberLog())
        _ = await group.join(symbols: ["AAPL"], receive: early.record)
        let session = try await alpha.nextSession()
        _ = try await session.nextCall()
        let probe = await hub.subscribe(symbols: ["AAPL"])
        for price in 1...5 { session.send(.quote(quote("AAPL", price))) }
        try await waitForHub(probe, "AAPL", 5)
        try await read(group) { early.last("AAPL") == quote("AAPL", 5) }

        // A newer quote is owed to the group when the late member joins: its replay (the hub's cache, 6)
        // comes before the group's batch, so whatever order they are taken in, it ends on the newest.
        session.send(.quote(quote("AAPL", 6)))
        try await waitForHub(probe, "AAPL", 6)
        _ = await group.join(symbols: ["AAPL"], receive: late.record)
        try await read(group) { late.last("AAPL") == quote("AAPL", 6) && early.last("AAPL") == quote("AAPL", 6) }
        #expect(late.quotes.first == quote("AAPL", 6))
        session.send(.quote(quote("AAPL", 7)))
        try await read(group) { late.last("AAPL") == quote("AAPL", 7) }
        #expect(late.quotes.allSatisfy { $0.last >= ExactDecimal(6) })
        #expect(early.last("AAPL") == quote("AAPL", 7))
        await hub.shutdown()
    }

    @Test func setSymbolsReplaysTheNewSymbolsCachedValues() async throws {
        let hub = makeHub()
        let group = await hub.subscribeGroup()
        let (holder, mover) = (MemberLog(), MemberLog())
        _ = await group.join(symbols: ["MSFT"], receive: holder.record)
        let member = await group.join(symbols: ["AAPL"], receive: mover.record)
        let session = try await alpha.nextSession()
        _ = try await session.nextCall()
        let probe = await hub.subscribe(symbols: ["MSFT"])
        session.send(.quote(quote("MSFT", 3)))
        try await waitForHub(probe, "MSFT", 3)
        try await read(group) { holder.last("MSFT") == quote("MSFT", 3) }

        await member.setSymbols(["MSFT"])
        #expect(try await session.nextCall() == .unsubscribe(["AAPL"]))
        try await read(group) { mover.last("MSFT") == quote("MSFT", 3) }
        #expect(mover.quotes == [quote("MSFT", 3)])
        await hub.shutdown()
    }
}
