@testable import BrokerAdapters
import Domain
import Foundation
import Locking
import Networking
import Testing

@Suite struct FinnhubStreamServiceTests {
    static let token = "fh-secret-token-0123"
    static let credentials = FinnhubCredentials(token: token)

    /// A session whose first step (a subscribe to `symbols`) reported `.live`; the subscribe messages read.
    static func liveSession(
        subscribed symbols: [String] = ["AAPL"]
    ) async throws -> (StreamSessionTestSocket, any QuoteStreamSession, StreamSessionTestEvents) {
        let socket = StreamSessionTestSocket()
        let session = try await FinnhubStreamService(connector: socket, credentials: credentials).openSession()
        let events = StreamSessionTestEvents(session)
        await session.subscribe(Set(symbols))
        #expect(try await events.next() == .event(.live))
        for _ in symbols { _ = try await socket.nextSent() }
        return (socket, session, events)
    }

    static func milliseconds(_ value: Int64) -> Date {
        EpochTimestamp.milliseconds.date(from: value)
    }

    /// The error a session ends with after the server sends `frame`.
    static func failure(after frame: String, credentials: FinnhubCredentials = credentials) async throws -> BrokerError? {
        let socket = StreamSessionTestSocket()
        let session = try await FinnhubStreamService(connector: socket, credentials: credentials).openSession()
        let events = StreamSessionTestEvents(session)
        await session.subscribe(["AAPL"])
        #expect(try await events.next() == .event(.live))
        socket.serverSends(frame)
        guard case .failed(let error) = try await events.next() else { return nil }
        return error
    }

    @Test func theKeyGoesInTheURLAsASecretAndTheFirstSubscribeReportsLive() async throws {
        let socket = StreamSessionTestSocket()
        let recorder = SecretNamesRecorder(socket)
        let service = FinnhubStreamService(connector: recorder, credentials: Self.credentials)
        #expect(service.branding == FinnhubBroker.branding)
        #expect(service.url == URL(string: "wss://ws.finnhub.io"))
        let session = try await service.openSession()
        let events = StreamSessionTestEvents(session)
        #expect(socket.connectedURL == URL(string: "wss://ws.finnhub.io?token=\(Self.token)"))
        #expect(recorder.secretNames == ["token"])
        #expect(socket.unreadSent.isEmpty, "Finnhub has no auth message")

        await session.subscribe(["MSFT", "AAPL"])
        #expect(try await events.next() == .event(.live))
        // One message per symbol (reference §4.2), sorted.
        #expect(try await socket.nextSent() == #"{"type":"subscribe","symbol":"AAPL"}"#)
        #expect(try await socket.nextSent() == #"{"type":"subscribe","symbol":"MSFT"}"#)
        await session.close()
        #expect(socket.closeCode == 1000)
    }

    @Test func subscribeAndUnsubscribeSendOnlyTheChangeOneMessagePerSymbol() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL"])
        defer { withExtendedLifetime(events) {} }
        await session.subscribe(["AAPL", "NVDA", "BRK.B"])
        #expect(try await socket.nextSent() == #"{"type":"subscribe","symbol":"BRK.B"}"#)
        #expect(try await socket.nextSent() == #"{"type":"subscribe","symbol":"NVDA"}"#)
        await session.subscribe(["AAPL"])
        await session.unsubscribe(["ZZZZ"])
        await session.unsubscribe(["NVDA", "AAPL", "ZZZZ"])
        // Neither the repeated subscribe nor the unknown unsubscribe sent anything.
        #expect(try await socket.nextSent() == #"{"type":"unsubscribe","symbol":"AAPL"}"#)
        #expect(try await socket.nextSent() == #"{"type":"unsubscribe","symbol":"NVDA"}"#)
        #expect(events.pending.isEmpty, ".live is reported once")
        await session.close()
    }

    @Test func eachSymbolsLatestTradeOfAMessageBecomesOneQuote() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL", "MSFT"])
        socket.serverSends(#"""
            {"type":"trade","data":[{"p":227.52,"s":"AAPL","t":1731528912441,"v":100,"c":["1","12"]},
                                    {"p":423.1,"s":"MSFT","t":1731528912450,"v":5},
                                    {"p":227.53,"s":"AAPL","t":1731528912455,"v":35,"c":null},
                                    {"p":227.4,"s":"AAPL","t":1731528912300,"v":10}]}
            """#)
        // AAPL first (it appeared first), at its newest trade; the late-arriving older trade does not win.
        #expect(try await events.nextQuote() == CommonQuote(symbol: "AAPL", last: exactDecimal("227.53"), timestamp: Self.milliseconds(1_731_528_912_455)))
        #expect(try await events.nextQuote() == CommonQuote(symbol: "MSFT", last: exactDecimal("423.1"), timestamp: Self.milliseconds(1_731_528_912_450)))
        #expect(events.pending.isEmpty)
        await session.close()
    }

    @Test func pingsAndPriceOnlyUpdatesAndUnsubscribedSymbols() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL"])
        socket.serverSends(#"{"type":"ping"}"#)
        socket.serverSends(#"{"type":"trade","data":[{"p":250,"s":"TSLA","t":1,"v":1},{"p":0,"s":"AAPL","t":2,"v":1},{"p":227.5,"s":"AAPL","t":3,"v":0}]}"#)
        // The ping produced nothing; TSLA is not subscribed; a zero price is no price; `v: 0` is a price.
        #expect(try await events.next() == .event(.quote(CommonQuote(symbol: "AAPL", last: exactDecimal("227.5"), timestamp: Self.milliseconds(3)))))
        #expect(events.pending.isEmpty)
        await session.close()
    }

    @Test func aSymbolLimitErrorRefusesTheNewestSymbolAndTheStreamGoesOn() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL", "MSFT"])
        await session.subscribe(["NVDA"])
        _ = try await socket.nextSent()
        socket.serverSends(#"{"type":"error","msg":"Subscribing to too many symbols"}"#)
        let limit = BrokerError.limitExceeded(
            "Finnhub's symbol limit for your plan is reached (about 50 on the free plan): remove symbols from the watchlist")
        #expect(try await events.next() == .event(.symbolFailed("NVDA", limit)))
        socket.serverSends(#"{"type":"error","msg":"Subscribing to too many symbols"}"#)
        #expect(try await events.next() == .event(.symbolFailed("MSFT", limit)))
        socket.serverSends(#"{"type":"trade","data":[{"p":1,"s":"NVDA","t":1},{"p":2,"s":"AAPL","t":2}]}"#)
        #expect(try await events.nextQuote()?.symbol == "AAPL", "refused symbols no longer deliver")
        #expect(limit.isPermanent)
        await session.close()
    }

    @Test func anErrorNamingASubscribedSymbolFailsThatSymbolOnly() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL", "ZZZQ", "ZZZQX"])
        socket.serverSends(#"{"type":"error","msg":"Invalid symbol ZZZQ."}"#)
        #expect(try await events.next() == .event(.symbolFailed("ZZZQ", .unknownSymbol("ZZZQ"))))
        socket.serverSends(#"{"type":"trade","data":[{"p":2,"s":"AAPL","t":2}]}"#)
        #expect(try await events.nextQuote()?.symbol == "AAPL")
        await session.close()
    }

    @Test func aKeyErrorIsPermanentAndNamesTheVariable() async throws {
        let error = try await Self.failure(
            after: #"{"type":"error","msg":"Invalid API token"}"#,
            credentials: FinnhubCredentials(token: Self.token, tokenVariable: "MY_FINNHUB_KEY"))
        #expect(error == .unauthorized(hint: "check MY_FINNHUB_KEY"))
        #expect(error?.isPermanent == true)
    }

    @Test func aRateLimitErrorIsNotASymbolLimit() async throws {
        let error = try await Self.failure(after: #"{"type":"error","msg":"Rate limit exceeded"}"#)
        #expect(error == .badResponse("finnhub stream: error: Rate limit exceeded"))
        #expect(error?.isPermanent == false)
    }

    @Test func anyOtherErrorEndsTheConnectionRetryablyWithoutTheKey() async throws {
        let error = try await Self.failure(after: #"{"type":"error","msg":"Internal error for \#(Self.token)\u0007"}"#)
        #expect(error == .badResponse("finnhub stream: error: Internal error for <redacted>\\u{7}"))
        #expect(error?.isPermanent == false)
    }

    @Test(arguments: [
        (WebSocketError.handshakeFailed(status: 401, reason: "Unauthorized"), BrokerError.unauthorized(hint: "check FINNHUB_TOKEN")),
        (.handshakeFailed(status: 403, reason: "Forbidden"), .unauthorized(hint: "check FINNHUB_TOKEN")),
        (.handshakeFailed(status: 429, reason: "Too Many Requests"), .rateLimited(retryAfter: nil)),
        (.handshakeFailed(status: 502, reason: "Bad Gateway"), .server(status: 502)),
        (.network("connection refused"), .network("finnhub stream: connection refused")),
        (.handshakeFailed(status: 400, reason: "GET /?token=\(token) refused"),
         .network("finnhub stream: websocket upgrade refused (HTTP 400): GET /?token=<redacted> refused")),
        (.tls("certificate for \(token).example does not match"),
         .network("finnhub stream: TLS: certificate for <redacted>.example does not match")),
    ])
    func connectErrorsMapToBrokerErrors(connectError: WebSocketError, expected: BrokerError) async {
        let service = FinnhubStreamService(connector: StreamSessionTestSocket(connectError: connectError), credentials: Self.credentials)
        await #expect(throws: expected) { try await service.openSession() }
    }

    @Test func onlyAuthErrorsOnTheUpgradeArePermanent() {
        #expect(BrokerError.unauthorized(hint: "check FINNHUB_TOKEN").isPermanent)
        #expect(!BrokerError.rateLimited(retryAfter: nil).isPermanent)
        #expect(!BrokerError.server(status: 502).isPermanent)
    }

    @Test func aMissingKeyFailsBeforeConnecting() async {
        let socket = StreamSessionTestSocket()
        let service = FinnhubStreamService(connector: socket, credentials: FinnhubCredentials(token: " \n"))
        await #expect(throws: BrokerError.unauthorized(hint: "set FINNHUB_TOKEN")) { try await service.openSession() }
        #expect(socket.connectedURL == nil)
    }

    @Test func aDroppedOrClosedConnectionIsRetryableAndAMalformedFrameIsABadResponse() async throws {
        let (dropped, _, droppedEvents) = try await Self.liveSession()
        dropped.serverDrops(.network("connection reset by peer"))
        #expect(try await droppedEvents.next() == .failed(.network("finnhub stream: connection reset by peer")))

        let (closed, _, closedEvents) = try await Self.liveSession()
        closed.serverCloses()
        #expect(try await closedEvents.next() == .failed(.network("finnhub stream: connection closed by the server")))

        let (garbled, _, garbledEvents) = try await Self.liveSession()
        // A garbled frame is skipped and reported; the session goes on (issue 13).
        garbled.serverSends(#"{"type":"trade","data":[{"p":1"#)
        guard case .event(.skippedFrame(let reason)) = try await garbledEvents.next() else {
            Issue.record("expected a skipped frame")
            return
        }
        #expect(reason.hasPrefix("malformed JSON"))
        #expect(!reason.contains(Self.token))
        #expect(garbled.closeCode == nil)
    }

    @Test func theKeyIsPercentEncodedAndAddedToAnyQuery() {
        let url = URL(string: "ws://127.0.0.1:8123?feed=x")!
        #expect(FinnhubStreamService.authenticatedURL(url, token: "a+b/c d") == URL(string: "ws://127.0.0.1:8123?feed=x&token=a%2Bb%2Fc%20d"))
        #expect(FinnhubStreamService.authenticatedURL(FinnhubStreamService.defaultURL, token: "k1") == URL(string: "wss://ws.finnhub.io?token=k1"))
    }

    @Test(arguments: [
        ("https://finnhub.io", "wss://ws.finnhub.io"),
        ("https://finnhub.io/api/v1", "wss://ws.finnhub.io"),
        ("http://127.0.0.1:8123", "ws://127.0.0.1:8123"),
        ("http://127.0.0.1:8123/prefix?token=x", "ws://127.0.0.1:8123"),
        ("https://proxy.example", "wss://proxy.example"),
    ])
    func streamURLFollowsTheRESTBaseURL(base: String, expected: String) {
        #expect(FinnhubStreamService.url(forBaseURL: URL(string: base)!) == URL(string: expected)!)
    }
}

/// Passes connections through and keeps the secret names the service asked the connector to hide.
private final class SecretNamesRecorder: WebSocketConnector {
    private let base: StreamSessionTestSocket
    private let names = Locked<Set<String>?>(nil)

    init(_ base: StreamSessionTestSocket) {
        self.base = base
    }

    var secretNames: Set<String>? { names.withLock { $0 } }

    func connect(to url: URL, headers: [String: String], secretNames: Set<String>) async throws(WebSocketError) -> any WebSocketConnection {
        names.withLock { $0 = secretNames }
        return try await base.connect(to: url, headers: headers, secretNames: secretNames)
    }
}
