import BrokerAdapters
import Domain
import Foundation
import Networking
import Testing
import TestSupport

/// AlpacaStreamService over the real WebSocket client against the Alpaca stream fixture server
/// (Tests/Fixtures/streams): the wire as the reference describes it, end to end through the sockets.
@Suite struct LiveStreamAlpacaTests {
    static let symbolLimit = BrokerError.limitExceeded(
        "Alpaca's symbol limit for your plan is reached: remove symbols from the watchlist")

    static func service(_ peer: PythonPeer, secret: String = "test-secret", feed: String = "iex") -> AlpacaStreamService {
        AlpacaStreamService(
            connector: LiveWebSocketConnector(),
            url: AlpacaStreamService.url(forBaseURL: LiveStreamFixture.baseURL(peer), feed: feed),
            credentials: AlpacaCredentials(keyID: "test-key-id", secretKey: secret, feed: feed))
    }

    /// A session that reported `.live`, with its events being read.
    static func liveSession(_ peer: PythonPeer) async throws -> (any QuoteStreamSession, StreamSessionTestEvents) {
        let session = try await service(peer).openSession()
        let events = StreamSessionTestEvents(session)
        #expect(try await events.next() == .event(.live))
        return (session, events)
    }

    @Test func quotesForEverySubscribedSymbolCarryTheFixturePricesAndStopAfterUnsubscribe() async throws {
        let peer = try await LiveStreamFixture.start("alpaca")
        let (session, events) = try await Self.liveSession(peer)
        #expect(await peer.line(where: { $0 == "AUTH ok" }) != nil)

        await session.subscribe(["MSFT", "AAPL"])
        #expect(await peer.line(where: { $0 == "SUBSCRIBED AAPL MSFT" }) != nil)
        // The first tick is one frame [t AAPL, q AAPL, t MSFT, q MSFT]: a trade, then its bid/ask merged in.
        var first: [CommonQuote] = []
        for _ in 0..<4 { first.append(try #require(try await events.nextQuote())) }
        #expect(first.map(\.symbol) == ["AAPL", "AAPL", "MSFT", "MSFT"])
        #expect(first.map(\.last) == [386, 386, 414, 414])
        #expect(first[1].bid == 385.99 && first[1].ask == 386.01 && first[3].bid == 413.99 && first[3].ask == 414.01)

        var others: [StreamSessionTestOutcome] = []
        // Eight ticks: the timestamps go through 9, 0, 3 and 6 fraction digits twice and all decode.
        let prices = try await LiveStreamFixture.prices(from: events, each: ["AAPL", "MSFT"], count: 8, others: &others)
        #expect(prices["AAPL"] == Array(LiveStreamFixture.prices("AAPL", count: 9).dropFirst()))
        #expect(prices["MSFT"] == Array(LiveStreamFixture.prices("MSFT", count: 9).dropFirst()))
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

    @Test func rejectedKeysEndTheSessionWithAPermanentUnauthorizedError() async throws {
        let peer = try await LiveStreamFixture.start("alpaca")
        let session = try await Self.service(peer, secret: "wrong-secret").openSession()
        let outcome = try await StreamSessionTestEvents(session).next()
        #expect(outcome == .failed(.unauthorized(hint: "check APCA_API_KEY_ID and APCA_API_SECRET_KEY")))
        if case .failed(let error) = outcome { #expect(error.isPermanent, "retrying bad keys would hammer the server") }
        #expect(await peer.line(where: { $0 == "AUTH failed" }) != nil)
    }

    @Test func aFeedOutsideThePlanEndsTheSessionPermanently() async throws {
        let peer = try await LiveStreamFixture.start("alpaca")
        let session = try await Self.service(peer, feed: "sip").openSession()
        let outcome = try await StreamSessionTestEvents(session).next()
        #expect(outcome == .failed(.unauthorized(hint: "your Alpaca plan does not include the sip feed: use the iex feed")))
        #expect(await peer.line(where: { $0 == "AUTH plan" }) != nil)
    }

    @Test func aSecondConnectionWithTheSameKeyGetsThePermanentConnectionLimitError() async throws {
        let peer = try await LiveStreamFixture.start("alpaca")
        let (first, firstEvents) = try await Self.liveSession(peer)
        let second = try await Self.service(peer).openSession()
        let outcome = try await StreamSessionTestEvents(second).next()
        #expect(outcome == .failed(.limitExceeded("Alpaca allows one connection per key: close the other session")))
        if case .failed(let error) = outcome { #expect(error.isPermanent) }
        #expect(await peer.line(where: { $0 == "AUTH limit" }) != nil)
        await first.subscribe(["AAPL"])
        #expect(try await firstEvents.nextQuote()?.last == 386, "the first connection is unharmed")
        await first.close()
    }

    @Test func aRefusedSubscriptionFailsOnlyItsSymbolsAndTheOthersFlow() async throws {
        let peer = try await LiveStreamFixture.start("alpaca", ["--symbol-limit", "2"])
        let (session, events) = try await Self.liveSession(peer)
        await session.subscribe(["AAPL"])
        #expect(try await events.nextQuote()?.last == 386)
        // ZZZZ is the fixture's refused symbol; NVDA with AAPL and MSFT is over the limit of two.
        await session.subscribe(["ZZZZ"])
        await session.subscribe(["MSFT"])
        await session.subscribe(["NVDA"])
        #expect(await peer.line(where: { $0 == "REJECTED NVDA 405" }) != nil)
        var others: [StreamSessionTestOutcome] = []
        let prices = try await LiveStreamFixture.prices(from: events, each: ["AAPL", "MSFT"], count: 4, others: &others)
        #expect(prices["MSFT"] == LiveStreamFixture.prices("MSFT", count: 4))
        // NVDA's refusal may come after MSFT's first ticks.
        if others.count < 2, let outcome = try await LiveStreamFixture.nextNonQuote(from: events) { others.append(outcome) }
        #expect(others == [.event(.symbolFailed("ZZZZ", Self.symbolLimit)), .event(.symbolFailed("NVDA", Self.symbolLimit))])
        await session.close()
    }

    @Test func aServerThatGoesAwayFailsTheSessionRetryablyAndARestartedOneQuotesEverySymbolAgain() async throws {
        let peer = try await LiveStreamFixture.start("alpaca")
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

        let restarted = try await LiveStreamFixture.start("alpaca", port: peer.port)
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
