import BrokerAdapters
import Domain
import Foundation
import Networking
import Testing
import TestSupport

/// PolygonStreamService over the real WebSocket client against the Polygon stream fixture server
/// (Tests/Fixtures/streams): the wire as the reference describes it, end to end through the sockets.
@Suite struct LiveStreamPolygonTests {
    static func service(_ peer: PythonPeer, key: String = "test-key") -> PolygonStreamService {
        PolygonStreamService(
            connector: LiveWebSocketConnector(),
            url: PolygonStreamService.url(forBaseURL: LiveStreamFixture.baseURL(peer)),
            credentials: PolygonCredentials(apiKey: key))
    }

    /// A session that reported `.live`, with its events being read.
    static func liveSession(_ peer: PythonPeer) async throws -> (any QuoteStreamSession, StreamSessionTestEvents) {
        let session = try await service(peer).openSession()
        let events = StreamSessionTestEvents(session)
        #expect(try await events.next() == .event(.live))
        return (session, events)
    }

    @Test func quotesForEverySubscribedSymbolCarryTheFixturePricesAndStopAfterUnsubscribe() async throws {
        let peer = try await LiveStreamFixture.start("polygon")
        let (session, events) = try await Self.liveSession(peer)
        #expect(await peer.line(where: { $0 == "AUTH ok" }) != nil)

        await session.subscribe(["AAPL", "MSFT"])
        #expect(await peer.line(where: { $0 == "SUBSCRIBED AAPL MSFT" }) != nil)
        // The first tick is one frame [T AAPL, Q AAPL, T MSFT, Q MSFT]: a trade, then its bid/ask merged in.
        var first: [CommonQuote] = []
        for _ in 0..<4 { first.append(try #require(try await events.nextQuote())) }
        #expect(first.map(\.symbol) == ["AAPL", "AAPL", "MSFT", "MSFT"])
        #expect(first.map(\.last) == [386, 386, 414, 414])
        #expect(first[0].bid == nil && first[1].bid == 385.99 && first[1].ask == 386.01)
        #expect(first[3].bid == 413.99 && first[3].ask == 414.01)

        var others: [StreamSessionTestOutcome] = []
        let prices = try await LiveStreamFixture.prices(from: events, each: ["AAPL", "MSFT"], count: 5, others: &others)
        #expect(prices["AAPL"] == Array(LiveStreamFixture.prices("AAPL", count: 6).dropFirst()))
        #expect(prices["MSFT"] == Array(LiveStreamFixture.prices("MSFT", count: 6).dropFirst()))
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

    @Test func aRejectedKeyEndsTheSessionWithAPermanentUnauthorizedError() async throws {
        let peer = try await LiveStreamFixture.start("polygon")
        let session = try await Self.service(peer, key: "wrong-key").openSession()
        let events = StreamSessionTestEvents(session)
        let outcome = try await events.next()
        #expect(outcome == .failed(.unauthorized(hint: "check POLYGON_API_KEY")))
        if case .failed(let error) = outcome { #expect(error.isPermanent, "retrying a bad key would hammer the server") }
        #expect(await peer.line(where: { $0 == "AUTH failed" }) != nil)
    }

    @Test func aSecondConnectionWithTheSameKeyGetsThePermanentConnectionLimitError() async throws {
        let peer = try await LiveStreamFixture.start("polygon")
        let (first, firstEvents) = try await Self.liveSession(peer)
        let second = try await Self.service(peer).openSession()
        let outcome = try await StreamSessionTestEvents(second).next()
        #expect(outcome == .failed(.limitExceeded("Polygon allows one connection per asset class: close the other session")))
        if case .failed(let error) = outcome { #expect(error.isPermanent) }
        #expect(await peer.line(where: { $0 == "AUTH limit" }) != nil)
        // The first connection is unharmed.
        await first.subscribe(["AAPL"])
        #expect(try await firstEvents.nextQuote()?.last == 386)
        await first.close()
    }

    @Test func anUnknownSymbolIsAcknowledgedButNeverQuotedWhileTheOthersFlow() async throws {
        let peer = try await LiveStreamFixture.start("polygon")
        let (session, events) = try await Self.liveSession(peer)
        await session.subscribe(["AAPL", "ZZZZ"])
        #expect(await peer.line(where: { $0 == "SUBSCRIBED AAPL ZZZZ" }) != nil)
        var others: [StreamSessionTestOutcome] = []
        let prices = try await LiveStreamFixture.prices(from: events, each: ["AAPL"], count: 5, others: &others)
        #expect(prices["AAPL"] == LiveStreamFixture.prices("AAPL", count: 5))
        // Polygon has no per-symbol error: the session stays live and ZZZZ simply never trades.
        #expect(others.isEmpty)
        await session.close()
    }

    @Test func aServerThatGoesAwayFailsTheSessionRetryablyAndARestartedOneQuotesEverySymbolAgain() async throws {
        let peer = try await LiveStreamFixture.start("polygon")
        let (session, events) = try await Self.liveSession(peer)
        await session.subscribe(["AAPL", "MSFT"])
        var others: [StreamSessionTestOutcome] = []
        _ = try await LiveStreamFixture.prices(from: events, each: ["AAPL", "MSFT"], count: 2, others: &others)

        await peer.stop()
        let outcome = try await LiveStreamFixture.nextNonQuote(from: events, timeout: .seconds(2))
        guard case .failed(let error) = outcome, case .network = error else {
            Issue.record("expected a network failure, got \(String(describing: outcome))")
            return
        }
        #expect(!error.isPermanent, "\(error) must be retryable")
        await session.close()

        let restarted = try await LiveStreamFixture.start("polygon", port: peer.port)
        let (resumed, resumedEvents) = try await Self.liveSession(restarted)
        // What the hub resubscribes after a reconnect: the old symbols and NVDA, added while the server was down.
        await resumed.subscribe(["AAPL", "MSFT", "NVDA"])
        let prices = try await LiveStreamFixture.prices(from: resumedEvents, each: ["AAPL", "MSFT", "NVDA"], count: 3, others: &others)
        for symbol in ["AAPL", "MSFT", "NVDA"] {
            #expect(prices[symbol] == LiveStreamFixture.prices(symbol, count: 3), "\(symbol) resumes from its first tick")
        }
        await resumed.close()
    }
}
