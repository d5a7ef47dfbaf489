import BrokerAdapters
import Domain
import Foundation
import Networking
import Testing

@Suite struct TradierStreamServiceTests {
    /// The id in Tests/Fixtures/tradier/stream-session.json (the reference's example).
    static let sessionID = "c8638963-a6d4-4fb9-9bc6-e25fbd8c60c3"
    static let token = "test-token"
    static let base = URL(string: "http://127.0.0.1:8123")!
    static let now = Date(timeIntervalSince1970: 1_731_528_900)

    static func payload(_ symbols: [String]) -> String {
        #"{"symbols":\#(symbolList(symbols)),"sessionid":"\#(sessionID)","filter":["trade","quote","summary"],"linebreak":true,"validOnly":true}"#
    }

    static func symbolList(_ symbols: [String]) -> String {
        "[" + symbols.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    static func milliseconds(_ value: Int64) -> Date {
        EpochTimestamp.milliseconds.date(from: value)
    }

    /// A service on the fixture routes (base URL overridden, as for a local fixture server).
    static func service(
        _ socket: StreamSessionTestSocket, servicer: FixtureRoutesServicer, token: String? = token,
        environment: ServiceEnvironment = .production, overrideBaseURL: Bool = true
    ) -> TradierStreamService {
        let context = ServiceContext(
            environment: environment, baseURLOverrides: overrideBaseURL ? ["tradier": base] : [:], servicer: servicer)
        return TradierStreamService(connector: socket, context: context, credentials: TradierCredentials(token: token), now: { Self.now })
    }

    /// A session that reported `.live` on its first subscribe (to `symbols`), the payload read.
    static func liveSession(
        subscribed symbols: Set<String> = ["AAPL"], environment: ServiceEnvironment = .production
    ) async throws -> (StreamSessionTestSocket, any QuoteStreamSession, StreamSessionTestEvents) {
        let socket = StreamSessionTestSocket()
        let session = try await service(socket, servicer: try FixtureRoutesServicer(broker: "tradier"), environment: environment).openSession()
        let events = StreamSessionTestEvents(session)
        await session.subscribe(symbols)
        #expect(try await events.next() == .event(.live))
        _ = try await socket.nextSent()
        return (socket, session, events)
    }

    /// What `openSession` throws, if anything.
    static func openFailure(_ service: TradierStreamService) async -> BrokerError? {
        do {
            let session = try await service.openSession()
            await session.close()
            return nil
        } catch {
            return error
        }
    }

    // MARK: Session, then socket

    @Test func createsASessionOverRESTThenConnectsAndSendsTheFullPayload() async throws {
        let socket = StreamSessionTestSocket()
        let servicer = try FixtureRoutesServicer(broker: "tradier")
        let service = Self.service(socket, servicer: servicer)
        #expect(service.branding == TradierBroker.branding)
        #expect(service.url == URL(string: "ws://127.0.0.1:8123/v1/markets/events"))
        let session = try await service.openSession()
        let events = StreamSessionTestEvents(session)

        let post = try #require(servicer.sent.first)
        #expect(servicer.sent.count == 1)
        #expect(post.request.method == "POST")
        #expect(post.url == "http://127.0.0.1:8123/v1/markets/events/session")
        #expect(post.request.headerFields["Authorization"] == "Bearer test-token")
        #expect(post.request.headerFields["Accept"] == "application/json")
        #expect(post.request.headerFields["Content-Length"] == "0")
        #expect(post.secretNames == ["Authorization"])
        #expect(socket.connectedURL == URL(string: "ws://127.0.0.1:8123/v1/markets/events"))
        #expect(socket.unreadSent.isEmpty, "nothing is sent before the hub subscribes")

        await session.subscribe(["MSFT", "AAPL"])
        #expect(try await events.next() == .event(.live))
        #expect(try await socket.nextSent() == Self.payload(["AAPL", "MSFT"]))
        await session.close()
        #expect(socket.closeCode == 1000)
    }

    @Test func everyChangeSendsTheWholeSetInOnePayload() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL"])
        defer { withExtendedLifetime(events) {} }
        await session.subscribe(["MSFT", "BRK.B", "AAPL"])
        // Tradier replaces its set with each payload; share classes in its spelling.
        #expect(try await socket.nextSent() == Self.payload(["AAPL", "BRK/B", "MSFT"]))
        await session.subscribe(["AAPL"])
        await session.unsubscribe(["ZZZZ"])
        await session.unsubscribe(["AAPL", "ZZZZ"])
        // Neither the repeated subscribe nor the unknown unsubscribe sent anything.
        #expect(try await socket.nextSent() == Self.payload(["BRK/B", "MSFT"]))
        await session.unsubscribe(["MSFT", "BRK.B"])
        // The list must not be empty: Lean's placeholder (reference §1.5).
        #expect(try await socket.nextSent() == Self.payload(["$empty$"]))
        #expect(events.pending.isEmpty, ".live is reported once")
        await session.close()
    }

    @Test func everyOpenMakesANewSession() async throws {
        let servicer = try FixtureRoutesServicer(broker: "tradier")
        for _ in 0..<2 {
            let session = try await Self.service(StreamSessionTestSocket(), servicer: servicer).openSession()
            await session.close()
        }
        #expect(servicer.sent.map(\.url) == Array(repeating: "http://127.0.0.1:8123/v1/markets/events/session", count: 2))
    }

    // MARK: Quotes

    @Test func quotesTradesAndSummariesMergeIntoOneQuotePerEvent() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL", "BRK.B"])
        socket.serverSends(#"{"type":"summary","symbol":"AAPL","open":"228.9","high":"229.41","low":"226.7","prevClose":"228.86"}"# + "\n")
        socket.serverSends(#"{"type":"quote","symbol":"AAPL","bid":227.5,"bidsz":3,"bidexch":"Q","biddate":"1731528913000","ask":227.53,"asksz":2,"askexch":"P","askdate":"1731528913000"}"# + "\n")
        // A summary alone has no price to show; the first quote shows the mid, with the close.
        #expect(try await events.nextQuote() == CommonQuote(
            symbol: "AAPL", last: exactDecimal("227.515"), timestamp: Self.milliseconds(1_731_528_913_000),
            bid: exactDecimal("227.5"), ask: exactDecimal("227.53"), previousClose: exactDecimal("228.86")))
        socket.serverSends(#"{"type":"trade","symbol":"AAPL","exch":"Q","price":"227.52","size":"200","cvol":"38211905","date":"1731528912441","last":"227.52"}"# + "\n")
        #expect(try await events.nextQuote() == CommonQuote(
            symbol: "AAPL", last: exactDecimal("227.52"), timestamp: Self.milliseconds(1_731_528_912_441),
            bid: exactDecimal("227.5"), ask: exactDecimal("227.53"), previousClose: exactDecimal("228.86"), volume: 38_211_905))
        // Tradier's spelling comes back under the hub's.
        socket.serverSends(#"{"type":"trade","symbol":"BRK/B","price":"471.2","size":"10","cvol":"1200","date":"1731528914000"}"# + "\n")
        #expect(try await events.nextQuote() == CommonQuote(
            symbol: "BRK.B", last: exactDecimal("471.2"), timestamp: Self.milliseconds(1_731_528_914_000), volume: 1200))
        // A later summary completes the quote already shown.
        socket.serverSends(#"{"type":"summary","symbol":"BRK/B","prevClose":"468.5"}"# + "\n")
        #expect(try await events.nextQuote() == CommonQuote(
            symbol: "BRK.B", last: exactDecimal("471.2"), timestamp: Self.milliseconds(1_731_528_914_000), previousClose: exactDecimal("468.5"), volume: 1200))
        await session.close()
    }

    @Test func twoSpellingsOfOneTradierSymbolShareItsSubscriptionAndItsQuotes() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["BRK.B", "BRK/B"])
        // (The payload read by `liveSession` named BRK/B once; the next ones show it.)
        socket.serverSends(#"{"type":"trade","symbol":"BRK/B","price":"471.2","date":"1731528914000"}"#)
        #expect(try await events.nextQuote() == CommonQuote(symbol: "BRK.B", last: exactDecimal("471.2"), timestamp: Self.milliseconds(1_731_528_914_000)))
        #expect(try await events.nextQuote() == CommonQuote(symbol: "BRK/B", last: exactDecimal("471.2"), timestamp: Self.milliseconds(1_731_528_914_000)))
        await session.unsubscribe(["BRK.B"])
        #expect(try await socket.nextSent() == Self.payload(["BRK/B"]))
        socket.serverSends(#"{"type":"trade","symbol":"BRK/B","price":"471.3","date":"1731528915000"}"#)
        #expect(try await events.nextQuote()?.symbol == "BRK/B")
        await session.unsubscribe(["BRK/B"])
        #expect(try await socket.nextSent() == Self.payload(["$empty$"]))
        await session.close()
    }

    /// A symbol's trade price, close and volume go when its last spelling is unsubscribed: subscribed
    /// again, its first quote shows the mid of the new bid and ask, with no close or volume from before.
    @Test func aSymbolSubscribedAgainStartsFromNothingKnown() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL"])
        socket.serverSends(#"{"type":"summary","symbol":"AAPL","prevClose":"228.86"}"# + "\n")
        socket.serverSends(#"{"type":"trade","symbol":"AAPL","price":"227.52","cvol":"38211905","date":"1731528912441"}"# + "\n")
        #expect(try await events.nextQuote()?.volume == 38_211_905)
        await session.unsubscribe(["AAPL"])
        #expect(try await socket.nextSent() == Self.payload(["$empty$"]))
        await session.subscribe(["AAPL"])
        #expect(try await socket.nextSent() == Self.payload(["AAPL"]))
        socket.serverSends(#"{"type":"quote","symbol":"AAPL","bid":230,"ask":230.1,"biddate":"1731528920000"}"# + "\n")
        #expect(try await events.nextQuote() == CommonQuote(
            symbol: "AAPL", last: exactDecimal("230.05"), timestamp: Self.milliseconds(1_731_528_920_000),
            bid: exactDecimal("230"), ask: exactDecimal("230.1")))
        await session.close()
    }

    @Test func theFirstPayloadNamesEachTradierSymbolOnce() async throws {
        let socket = StreamSessionTestSocket()
        let session = try await Self.service(socket, servicer: try FixtureRoutesServicer(broker: "tradier")).openSession()
        let events = StreamSessionTestEvents(session)
        await session.subscribe(["BRK/B", "BRK.B", "AAPL"])
        #expect(try await events.next() == .event(.live))
        #expect(try await socket.nextSent() == Self.payload(["AAPL", "BRK/B"]))
        await session.close()
    }

    @Test func undatedEventsAreDatedNowAndUnsubscribedOrTimesaleEventsAreDropped() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL"])
        socket.serverSends(
            #"{"type":"trade","symbol":"TSLA","price":"250","date":"1"}"# + "\n"
                + #"{"type":"timesale","symbol":"AAPL","bid":"1","ask":"2","last":"1.5","date":"1"}"# + "\n"
                + #"{"type":"trade","symbol":"AAPL","price":"227.5"}"# + "\n")
        #expect(try await events.next() == .event(.quote(CommonQuote(symbol: "AAPL", last: exactDecimal("227.5"), timestamp: Self.now))))
        #expect(events.pending.isEmpty)
        await session.close()
    }

    // MARK: Errors on the socket

    @Test func anInvalidSymbolFailsThatSymbolAndThePayloadIsResentWithoutIt() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL", "BRK.B", "ZZZQ"])
        socket.serverSends("{\"error\":\"ZZZQ is not a valid symbol\"}\n")
        #expect(try await events.next() == .event(.symbolFailed("ZZZQ", .unknownSymbol("ZZZQ"))))
        #expect(try await socket.nextSent() == Self.payload(["AAPL", "BRK/B"]))
        socket.serverSends("{\"error\":\"BRK/B is not a valid symbol\"}\n")
        #expect(try await events.next() == .event(.symbolFailed("BRK.B", .unknownSymbol("BRK.B"))))
        #expect(try await socket.nextSent() == Self.payload(["AAPL"]))
        socket.serverSends(#"{"type":"trade","symbol":"AAPL","price":"1","date":"5"}"#)
        #expect(try await events.nextQuote()?.symbol == "AAPL", "the stream goes on")
        await session.close()
    }

    @Test func aRefusedSessionEndsTheConnectionRetryablyWithoutItsId() async throws {
        let (socket, _, events) = try await Self.liveSession()
        socket.serverSends("{\"error\":\"session \(Self.sessionID) not found\"}\n")
        guard case .failed(let error) = try await events.next() else {
            Issue.record("expected the session to end")
            return
        }
        #expect(error == .network("tradier stream: session refused (session <redacted> not found); reconnecting makes a new one"))
        #expect(!error.isPermanent)
        #expect(try await socket.nextSent() == nil, "the socket was closed")
    }

    @Test func inTheSandboxARefusedSessionIsPermanent() async throws {
        let (socket, _, events) = try await Self.liveSession(environment: .sandbox)
        socket.serverSends("{\"error\":\"session not found\"}\n")
        let outcome = try await events.next()
        #expect(outcome == .failed(.unauthorized(hint: "Tradier's sandbox does not stream market data: use a production token")))
    }

    @Test func anyOtherErrorEndsTheConnectionRetryably() async throws {
        let (socket, _, events) = try await Self.liveSession()
        socket.serverSends(#"{"error":"internal error \u001b[2J"}"#)
        let outcome = try await events.next()
        #expect(outcome == .failed(.badResponse("tradier stream: error: internal error \\u{1b}[2J")))
    }

    @Test func dropsClosesAndGarbledFrames() async throws {
        let (dropped, _, droppedEvents) = try await Self.liveSession()
        dropped.serverDrops(.network("connection reset by peer"))
        #expect(try await droppedEvents.next() == .failed(.network("tradier stream: connection reset by peer")))

        // The server closes the socket overnight or when the session expires (reference §1.5).
        let (closed, _, closedEvents) = try await Self.liveSession()
        closed.serverCloses()
        #expect(try await closedEvents.next() == .failed(.network("tradier stream: connection closed by the server")))

        let (garbled, _, garbledEvents) = try await Self.liveSession()
        // A garbled frame is skipped and reported; the session goes on (issue 13).
        garbled.serverSends(#"{"type":"trade","symbol":"AAPL","price":"1""#)
        guard case .event(.skippedFrame(let reason)) = try await garbledEvents.next() else {
            Issue.record("expected a skipped frame")
            return
        }
        #expect(reason.hasPrefix("malformed JSON"))
        #expect(garbled.closeCode == nil)
    }

    // MARK: Errors before the socket

    @Test func aRejectedTokenIsPermanentAndNeverConnects() async throws {
        let socket = StreamSessionTestSocket()
        let error = await Self.openFailure(Self.service(socket, servicer: try FixtureRoutesServicer(broker: "tradier"), token: "wrong"))
        #expect(error == .unauthorized(hint: "check TRADIER_TOKEN"))
        #expect(error?.isPermanent == true)
        #expect(socket.connectedURL == nil)
    }

    @Test func aMissingTokenFailsBeforeAnyRequest() async throws {
        let servicer = try FixtureRoutesServicer(broker: "tradier")
        let error = await Self.openFailure(Self.service(StreamSessionTestSocket(), servicer: servicer, token: "  "))
        #expect(error == .unauthorized(hint: "set TRADIER_TOKEN"))
        #expect(servicer.sent.isEmpty)
    }

    @Test func theSandboxHasNoMarketStream() async throws {
        let socket = StreamSessionTestSocket()
        let servicer = try FixtureRoutesServicer(broker: "tradier")
        let error = await Self.openFailure(Self.service(socket, servicer: servicer, environment: .sandbox, overrideBaseURL: false))
        #expect(error == .unauthorized(hint: "Tradier's sandbox does not stream market data: use a production token"))
        #expect(error?.isPermanent == true)
        #expect(servicer.sent.isEmpty)
        #expect(socket.connectedURL == nil)
    }

    @Test(arguments: [
        (429, "Quota Violation 1731528960000", ["Retry-After": "30"], BrokerError.rateLimited(retryAfter: 30)),
        (500, "Internal Server Error", [:], .server(status: 500)),
        (400, #"{"errors":{"error":"Streaming is not enabled for this account"}}"#, ["Content-Type": "application/json"],
         .badResponse("tradier stream session: HTTP 400: Streaming is not enabled for this account")),
        (200, #"{"fault":{"faultstring":"Rate limit quota violation","detail":{"errorcode":"policies.ratelimit.QuotaViolation"}}}"#, [:],
         .badResponse("tradier: Rate limit quota violation (policies.ratelimit.QuotaViolation)")),
        (200, #"{"stream":{"url":7,"sessionid":"c8638963-a6d4-4fb9-9bc6-e25fbd8c60c3"}}"#, [:],
         .badResponse("tradier: the stream session answer has no stream.sessionid (HTTP 200, 71 bytes)")),
        (200, #"{"stream":{"sessionid":""}}"#, [:], .badResponse("tradier: the stream session answer has no stream.sessionid (HTTP 200, 27 bytes)")),
    ])
    func sessionRequestFailuresMapLikeEveryTradierRequestWithoutQuotingTheId(
        status: Int, body: String, headers: [String: String], expected: BrokerError
    ) async throws {
        let socket = StreamSessionTestSocket()
        let servicer = FixtureRoutesServicer.answering(status: status, headers: headers, body: body)
        let error = await Self.openFailure(Self.service(socket, servicer: servicer))
        #expect(error == expected)
        #expect(error.map { !"\($0)".contains(Self.sessionID) } == true)
        #expect(socket.connectedURL == nil)
    }

    @Test(arguments: [
        (WebSocketError.handshakeFailed(status: 503, reason: "Service Unavailable"), BrokerError.server(status: 503)),
        (.handshakeFailed(status: 429, reason: "Too Many Requests"), .rateLimited(retryAfter: nil)),
        (.handshakeFailed(status: 404, reason: "Not Found"), .network("tradier stream: websocket upgrade refused (HTTP 404): Not Found")),
        (.closed(code: 1008, reason: "bad session \(sessionID)"), .network("tradier stream: closed by server (1008): bad session <redacted>")),
    ])
    func connectErrorsAreRetryableAndNeverShowTheSessionId(connectError: WebSocketError, expected: BrokerError) async throws {
        let socket = StreamSessionTestSocket(connectError: connectError)
        let error = await Self.openFailure(Self.service(socket, servicer: try FixtureRoutesServicer(broker: "tradier")))
        #expect(error == expected)
        #expect(error?.isPermanent == false)
    }

    // MARK: URLs and the request

    @Test func theSessionRequestIsAnEmptyAuthenticatedPost() throws {
        let factory = TradierRequestFactory(
            baseURL: .success(TradierRequestFactory.productionURL), credentials: TradierCredentials(token: "test-token"), userAgent: "commonbroker/test")
        let request = try factory.streamSession().get()
        #expect(request.httpRequest.url.absoluteString == "https://api.tradier.com/v1/markets/events/session")
        #expect(request.httpRequest.method == "POST")
        #expect(request.httpRequest.body == Data())
        #expect(request.httpRequest.headerFields["Authorization"] == "Bearer test-token")
        #expect(request.httpRequest.headerFields["Accept"] == "application/json")
        #expect(request.httpRequest.headerFields["Content-Length"] == "0")
        #expect(request.httpRequest.headerFields["User-Agent"] == "commonbroker/test")
        #expect(request.secretNames == ["Authorization"])
        #expect(request.credentialHint == "check TRADIER_TOKEN")
        let body = try FixtureFiles.data("tradier", "stream-session.json")
        let envelope = try request.decode(HTTPResponse(status: 200, body: body))
        #expect(envelope.stream.sessionid == Self.sessionID)
        #expect(envelope.stream.url == "https://stream.tradier.com/v1/markets/events")
        #expect(!"\(envelope)".contains(Self.sessionID))
        #expect(!String(reflecting: envelope).contains(Self.sessionID))
    }

    @Test func withoutAnOverrideTheSocketIsTradiersOwn() throws {
        let context = ServiceContext(servicer: try FixtureRoutesServicer(broker: "tradier"))
        let service = TradierStreamService(connector: StreamSessionTestSocket(), context: context, credentials: TradierCredentials(token: "t"))
        #expect(service.url == TradierStreamService.defaultURL)
        #expect(TradierStreamService.defaultURL == URL(string: "wss://ws.tradier.com/v1/markets/events"))
        let explicit = URL(string: "ws://127.0.0.1:9/v1/markets/events")!
        #expect(TradierStreamService(connector: StreamSessionTestSocket(), url: explicit, context: context, credentials: TradierCredentials(token: "t")).url == explicit)
    }

    @Test(arguments: [
        ("https://api.tradier.com", "wss://ws.tradier.com/v1/markets/events"),
        ("https://api.tradier.com/v1", "wss://ws.tradier.com/v1/markets/events"),
        ("http://127.0.0.1:8123", "ws://127.0.0.1:8123/v1/markets/events"),
        ("http://127.0.0.1:8123/prefix?x=1", "ws://127.0.0.1:8123/v1/markets/events"),
    ])
    func streamURLFollowsTheRESTBaseURL(base: String, expected: String) {
        #expect(TradierStreamService.url(forBaseURL: URL(string: base)!) == URL(string: expected)!)
    }
}
