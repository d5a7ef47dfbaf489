import Domain
import Testing
import TestSupport

/// What the Polygon and Alpaca suites check alike through their stream services: both brokers send
/// trades and quotes as separate events after an auth exchange, and allow one connection per key.
enum LiveStreamSessionScenario {
    /// AAPL and MSFT quote at the fixture's prices, the first tick's trade and then its bid/ask merged in,
    /// for `ticks` more ticks; once MSFT is unsubscribed only AAPL streams.
    static func quotesFlowThenStopAfterUnsubscribe(
        _ peer: PythonPeer, _ live: (any QuoteStreamSession, StreamSessionTestEvents), ticks: Int
    ) async throws {
        let (session, events) = live
        #expect(await peer.line(where: { $0 == "AUTH ok" }) != nil)

        await session.subscribe(["AAPL", "MSFT"])
        #expect(await peer.line(where: { $0 == "SUBSCRIBED AAPL MSFT" }) != nil)
        // The first tick is one frame [trade AAPL, quote AAPL, trade MSFT, quote MSFT].
        var first: [CommonQuote] = []
        for _ in 0..<4 { first.append(try #require(try await events.nextQuote())) }
        #expect(first.map(\.symbol) == ["AAPL", "AAPL", "MSFT", "MSFT"])
        #expect(first.map(\.last) == [386, 386, 414, 414])
        #expect(first[0].bid == nil && first[1].bid == exactDecimal("385.99") && first[1].ask == exactDecimal("386.01"))
        #expect(first[3].bid == exactDecimal("413.99") && first[3].ask == exactDecimal("414.01"))

        var others: [StreamSessionTestOutcome] = []
        let prices = try await LiveStreamFixture.prices(from: events, each: ["AAPL", "MSFT"], count: ticks, others: &others)
        #expect(prices["AAPL"] == Array(LiveStreamFixture.prices("AAPL", count: ticks + 1).dropFirst()))
        #expect(prices["MSFT"] == Array(LiveStreamFixture.prices("MSFT", count: ticks + 1).dropFirst()))
        #expect(others.isEmpty)

        await session.unsubscribe(["MSFT"])
        // MSFT quotes emitted before the unsubscribe may still be queued; then only AAPL.
        try await LiveStreamFixture.skipUntilAlone("AAPL", in: events)
        #expect(await peer.line(where: { $0 == "SUBSCRIBED AAPL" }) != nil, "the server dropped MSFT")
        let after = try await LiveStreamFixture.prices(from: events, each: ["AAPL"], count: 3, others: &others)
        #expect(after["AAPL"]?.count == 3)
        #expect(others.isEmpty, "nothing but AAPL quotes: \(others)")
        await session.close()
    }

    /// Credentials the server refuses end the session with `unauthorized(hint:)`, permanently.
    static func credentialsRefused(_ peer: PythonPeer, _ service: some StreamingQuoteService, hint: String) async throws {
        let session = try await service.openSession()
        let outcome = try await StreamSessionTestEvents(session).next()
        #expect(outcome == .failed(.unauthorized(hint: hint)))
        if case .failed(let error) = outcome { #expect(error.isPermanent, "retrying refused credentials would hammer the server") }
        #expect(await peer.line(where: { $0 == "AUTH failed" }) != nil)
    }

    /// A second connection with the same key ends with `limit`, permanently; the first one is unharmed.
    static func secondConnectionIsRefused(
        _ peer: PythonPeer, _ service: some StreamingQuoteService, limit: BrokerError
    ) async throws {
        let (first, firstEvents) = try await LiveStreamSessionClient.live(service)
        let second = try await service.openSession()
        let outcome = try await StreamSessionTestEvents(second).next()
        #expect(outcome == .failed(limit))
        if case .failed(let error) = outcome { #expect(error.isPermanent) }
        #expect(await peer.line(where: { $0 == "AUTH limit" }) != nil)
        await first.subscribe(["AAPL"])
        #expect(try await firstEvents.nextQuote()?.last == 386, "the first connection is unharmed")
        await first.close()
    }
}
