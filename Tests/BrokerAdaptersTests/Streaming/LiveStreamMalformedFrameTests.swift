import BrokerAdapters
import Domain
import Foundation
import Networking
import Testing
import TestSupport

/// Issue 13 (5): a broker that sends an undecodable frame among good ones (the fixture's
/// `--malformed-every`), through each stream service over the real WebSocket client. Before, the first
/// bad frame ended the session and the app reconnected every ~0.45 s; now one connection carries on
/// through every bad frame, each reported as `.skippedFrame`, and quotes keep flowing.
@Suite struct LiveStreamMalformedFrameTests {
    static let malformedFrames = 4

    static func service(_ broker: String, _ peer: PythonPeer) -> any StreamingQuoteService {
        let base = LiveStreamFixture.baseURL(peer)
        let connector = LiveWebSocketConnector()
        return switch broker {
        case "polygon":
            PolygonStreamService(connector: connector, url: PolygonStreamService.url(forBaseURL: base), credentials: PolygonCredentials(apiKey: "test-key"))
        case "alpaca":
            AlpacaStreamService(
                connector: connector, url: AlpacaStreamService.url(forBaseURL: base, feed: "iex"),
                credentials: AlpacaCredentials(keyID: "test-key-id", secretKey: "test-secret"))
        case "finnhub":
            FinnhubStreamService(connector: connector, url: FinnhubStreamService.url(forBaseURL: base), credentials: FinnhubCredentials(token: "test-key"))
        default:
            TradierStreamService(
                connector: connector,
                context: ServiceContext(baseURLOverrides: ["tradier": base], servicer: SocketRequestServicer()),
                credentials: TradierCredentials(token: "test-token"))
        }
    }

    @Test(arguments: ["polygon", "alpaca", "finnhub", "tradier"])
    func oneConnectionSurvivesEveryMalformedFrameAndQuotesKeepFlowing(broker: String) async throws {
        let peer = try await LiveStreamFixture.start(broker, ["--malformed-every", "2"])
        let session = try await Self.service(broker, peer).openSession()
        let events = StreamSessionTestEvents(session)
        await session.subscribe(["AAPL"])

        var skipped: [String] = []
        var quotesAfterLastSkip = 0
        while skipped.count < Self.malformedFrames || quotesAfterLastSkip == 0 {
            switch try await events.next(timeout: .seconds(10)) {
            case .event(.skippedFrame(let reason)):
                skipped.append(reason)
                quotesAfterLastSkip = 0
            case .event(.quote(let quote)):
                #expect(quote.symbol == "AAPL")
                if skipped.count >= Self.malformedFrames { quotesAfterLastSkip += 1 }
            case .event:
                continue
            case let other:
                Issue.record("\(broker): the session ended after \(skipped.count) skipped frames: \(String(describing: other))")
                return
            }
        }

        #expect(skipped.allSatisfy { $0.hasPrefix("malformed JSON at byte") }, "\(skipped)")
        // The server sent the last of them on the first and only connection it accepted.
        #expect(await peer.line(where: { $0 == "MALFORMED \(Self.malformedFrames) 1" }) != nil)
        await session.close()
        #expect(await peer.line(where: { $0.hasPrefix("DISCONNECTED") }) != nil)
    }
}
