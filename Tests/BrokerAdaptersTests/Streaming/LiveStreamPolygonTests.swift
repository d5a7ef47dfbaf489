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
        try await LiveStreamSessionClient.live(service(peer))
    }

    @Test func quotesForEverySubscribedSymbolCarryTheFixturePricesAndStopAfterUnsubscribe() async throws {
        let peer = try await LiveStreamFixture.start("polygon")
        try await LiveStreamSessionScenario.quotesFlowThenStopAfterUnsubscribe(peer, Self.liveSession(peer), ticks: 5)
    }

    @Test func aRejectedKeyEndsTheSessionWithAPermanentUnauthorizedError() async throws {
        let peer = try await LiveStreamFixture.start("polygon")
        try await LiveStreamSessionScenario.credentialsRefused(peer, Self.service(peer, key: "wrong-key"), hint: "check POLYGON_API_KEY")
    }

    @Test func aSecondConnectionWithTheSameKeyGetsThePermanentConnectionLimitError() async throws {
        let peer = try await LiveStreamFixture.start("polygon")
        try await LiveStreamSessionScenario.secondConnectionIsRefused(
            peer, Self.service(peer), limit: .limitExceeded("Polygon allows one connection per asset class: close the other session"))
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
        try await LiveStreamRestart.run("polygon") { peer, symbols in
            try await LiveStreamSessionClient(Self.liveSession(peer), subscribing: symbols)
        }
    }
}
