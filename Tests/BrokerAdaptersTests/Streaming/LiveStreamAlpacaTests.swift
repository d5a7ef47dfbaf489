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
        try await LiveStreamSessionClient.live(service(peer))
    }

    @Test func quotesForEverySubscribedSymbolCarryTheFixturePricesAndStopAfterUnsubscribe() async throws {
        let peer = try await LiveStreamFixture.start("alpaca")
        // Eight ticks: the timestamps go through 9, 0, 3 and 6 fraction digits twice and all decode.
        try await LiveStreamSessionScenario.quotesFlowThenStopAfterUnsubscribe(peer, Self.liveSession(peer), ticks: 8)
    }

    @Test func rejectedKeysEndTheSessionWithAPermanentUnauthorizedError() async throws {
        let peer = try await LiveStreamFixture.start("alpaca")
        try await LiveStreamSessionScenario.credentialsRefused(
            peer, Self.service(peer, secret: "wrong-secret"), hint: "check APCA_API_KEY_ID and APCA_API_SECRET_KEY")
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
        try await LiveStreamSessionScenario.secondConnectionIsRefused(
            peer, Self.service(peer), limit: .limitExceeded("Alpaca allows one connection per key: close the other session"))
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
        try await LiveStreamRestart.run("alpaca") { peer, symbols in
            try await LiveStreamSessionClient(Self.liveSession(peer), subscribing: symbols)
        }
    }
}
