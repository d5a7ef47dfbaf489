import BrokerAdapters
import Domain
import Foundation
import Networking
import Testing

@Suite struct PolygonStreamServiceTests {
    static let connected = #"[{"ev":"status","status":"connected","message":"Connected Successfully"}]"#
    static let authSuccess = #"[{"ev":"status","status":"auth_success","message":"authenticated"}]"#
    static let credentials = PolygonCredentials(apiKey: "test-key")

    /// A session that went through connected → auth → auth_success, subscribed to `symbols` (their
    /// subscribe message already read).
    static func liveSession(
        subscribed symbols: Set<String> = []
    ) async throws -> (StreamSessionTestSocket, any QuoteStreamSession, StreamSessionTestEvents) {
        let socket = StreamSessionTestSocket()
        let session = try await PolygonStreamService(connector: socket, credentials: credentials).openSession()
        let events = StreamSessionTestEvents(session)
        socket.serverSends(connected)
        _ = try await socket.nextSent()
        socket.serverSends(authSuccess)
        #expect(try await events.next() == .event(.live))
        if !symbols.isEmpty {
            await session.subscribe(symbols)
            _ = try await socket.nextSent()
        }
        return (socket, session, events)
    }

    static func milliseconds(_ value: Int64) -> Date {
        EpochTimestamp.milliseconds.date(from: value)
    }

    @Test func handshakeWaitsForConnectedThenAuthenticatesThenReportsLive() async throws {
        let socket = StreamSessionTestSocket()
        let service = PolygonStreamService(connector: socket, credentials: Self.credentials)
        #expect(service.branding == PolygonBroker.branding)
        let session = try await service.openSession()
        let events = StreamSessionTestEvents(session)
        #expect(socket.connectedURL == URL(string: "wss://socket.polygon.io/stocks"))
        #expect(socket.unreadSent.isEmpty, "nothing is sent before the server says connected")

        socket.serverSends(Self.connected)
        #expect(try await socket.nextSent() == #"{"action":"auth","params":"test-key"}"#)
        #expect(events.pending.isEmpty, "not live before auth_success")

        socket.serverSends(Self.authSuccess)
        #expect(try await events.next() == .event(.live))
        await session.close()
    }

    @Test func subscriptionsBeforeAuthAreQueuedAndSentAsOneBatchAfterIt() async throws {
        let socket = StreamSessionTestSocket()
        let session = try await PolygonStreamService(connector: socket, credentials: Self.credentials).openSession()
        let events = StreamSessionTestEvents(session)
        await session.subscribe(["MSFT", "AAPL"])
        await session.subscribe(["NVDA"])
        await session.unsubscribe(["NVDA"])
        socket.serverSends(Self.connected)
        // The auth message is the first thing sent: the subscriptions waited.
        #expect(try await socket.nextSent() == #"{"action":"auth","params":"test-key"}"#)
        socket.serverSends(Self.authSuccess)
        #expect(try await events.next() == .event(.live))
        #expect(try await socket.nextSent() == #"{"action":"subscribe","params":"T.AAPL,Q.AAPL,T.MSFT,Q.MSFT"}"#)
        await session.close()
    }

    @Test func subscribeAndUnsubscribeSendOnlyTheChangeAsOneBatchedMessage() async throws {
        // `events` stays alive to the end: a reader that stops listening closes the session.
        let (socket, session, events) = try await Self.liveSession()
        defer { withExtendedLifetime(events) {} }
        await session.subscribe(["MSFT", "AAPL", "BRK.B"])
        #expect(try await socket.nextSent() == #"{"action":"subscribe","params":"T.AAPL,Q.AAPL,T.BRK.B,Q.BRK.B,T.MSFT,Q.MSFT"}"#)
        await session.subscribe(["AAPL", "NVDA"])
        #expect(try await socket.nextSent() == #"{"action":"subscribe","params":"T.NVDA,Q.NVDA"}"#)
        await session.subscribe(["AAPL"])
        await session.unsubscribe(["ZZZZ"])
        await session.unsubscribe(["MSFT", "AAPL", "ZZZZ"])
        // Neither the repeated subscribe nor the unsubscribe of an unknown symbol sent anything.
        #expect(try await socket.nextSent() == #"{"action":"unsubscribe","params":"T.AAPL,Q.AAPL,T.MSFT,Q.MSFT"}"#)
        await session.close()
        #expect(socket.closeCode == 1000)
    }

    @Test func authFailureIsPermanentAndNamesTheKeyVariable() async throws {
        let socket = StreamSessionTestSocket()
        let session = try await PolygonStreamService(
            connector: socket, credentials: PolygonCredentials(apiKey: "wrong", apiKeyVariable: "MY_POLYGON_KEY")
        ).openSession()
        let events = StreamSessionTestEvents(session)
        socket.serverSends(Self.connected)
        _ = try await socket.nextSent()
        socket.serverSends(#"[{"ev":"status","status":"auth_failed","message":"authentication failed"}]"#)
        let outcome = try await events.next()
        #expect(outcome == .failed(.unauthorized(hint: "check MY_POLYGON_KEY")))
        #expect(try await socket.nextSent() == nil, "the session closed the socket")
        #expect(socket.closeCode == 1000)
    }

    @Test func defaultHintIsPolygonApiKey() async throws {
        let socket = StreamSessionTestSocket()
        let session = try await PolygonStreamService(connector: socket, credentials: Self.credentials).openSession()
        let events = StreamSessionTestEvents(session)
        socket.serverSends(Self.connected)
        socket.serverSends(#"[{"ev":"status","status":"auth_failed","message":"authentication failed"}]"#)
        let outcome = try await events.next()
        #expect(outcome == .failed(.unauthorized(hint: "check POLYGON_API_KEY")))
        if case .failed(let error) = outcome { #expect(error.isPermanent) }
    }

    @Test func maxConnectionsIsAPermanentLimit() async throws {
        let socket = StreamSessionTestSocket()
        let session = try await PolygonStreamService(connector: socket, credentials: Self.credentials).openSession()
        let events = StreamSessionTestEvents(session)
        socket.serverSends(Self.connected)
        socket.serverSends(
            #"[{"ev":"status","status":"max_connections","message":"Maximum number of websocket connections exceeded. You have reached the connection limit for your account. Please contact support at https://polygon.io/contact to increase your limit."}]"#)
        let outcome = try await events.next()
        #expect(outcome == .failed(.limitExceeded("Polygon allows one connection per asset class: close the other session")))
        if case .failed(let error) = outcome { #expect(error.isPermanent) }
    }

    @Test func serverTextQuotingTheKeyNeverCarriesIt() async throws {
        let socket = StreamSessionTestSocket()
        let session = try await PolygonStreamService(connector: socket, credentials: Self.credentials).openSession()
        let events = StreamSessionTestEvents(session)
        socket.serverSends(Self.connected)
        socket.serverSends(#"[{"ev":"status","status":"error","message":"key test-key is not entitled to this cluster"}]"#)
        let outcome = try await events.next()
        guard case .failed(let error) = outcome else {
            Issue.record("expected a failure, got \(String(describing: outcome))")
            return
        }
        #expect(!error.description.contains("test-key"), "\(error)")
        #expect(error.description.contains("not entitled"))
    }

    @Test(arguments: [
        (#"[{"ev":"status","status":"auth_timeout","message":"No authentication request received."}]"#, "auth_timeout"),
        (#"[{"ev":"status","status":"error","message":"authentication failed"}]"#, "error"),
    ])
    func authTimeoutAndErrorStatusesAreRetryable(frame: String, status: String) async throws {
        let socket = StreamSessionTestSocket()
        let session = try await PolygonStreamService(connector: socket, credentials: Self.credentials).openSession()
        let events = StreamSessionTestEvents(session)
        socket.serverSends(Self.connected)
        socket.serverSends(frame)
        guard case .failed(let error) = try await events.next(), case .network(let detail) = error else {
            Issue.record("expected a network error")
            return
        }
        #expect(!error.isPermanent)
        #expect(detail.contains(status))
    }

    @Test func mixedTradeQuoteAndAggregateFramesMergeIntoQuotes() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL", "MSFT"])
        socket.serverSends(#"""
            [{"ev":"T","sym":"AAPL","i":"52983","x":4,"p":227.52,"s":100,"c":[12,37],"t":1731528912441,"q":1190234,"z":3},
             {"ev":"Q","sym":"MSFT","bx":19,"bp":423.09,"bs":2,"ax":11,"ap":423.12,"as":1,"c":1,"i":[604],"t":1731528912450,"q":55021934,"z":3},
             {"ev":"AM","sym":"AAPL","v":61234,"av":38211905,"op":228.9,"vw":227.4911,"o":227.6,"c":227.52,"h":227.71,"l":227.35,"a":227.9312,"z":88,"s":1731528840000,"e":1731528900000}]
            """#)
        #expect(try await events.nextQuote() == CommonQuote(symbol: "AAPL", last: exactDecimal("227.52"), timestamp: Self.milliseconds(1_731_528_912_441)))
        // No trade yet: the mid of the NBBO.
        #expect(try await events.nextQuote() == CommonQuote(
            symbol: "MSFT", last: exactDecimal("423.105"), timestamp: Self.milliseconds(1_731_528_912_450), bid: exactDecimal("423.09"), ask: exactDecimal("423.12")))

        socket.serverSends(#"""
            [{"ev":"Q","sym":"AAPL","bp":227.5,"ap":227.53,"t":1731528912460},
             {"ev":"T","sym":"MSFT","p":423.1,"s":5,"t":1731528912470},
             {"ev":"Q","sym":"MSFT","bp":423.2,"ap":423.3,"t":1731528912480}]
            """#)
        // A quote keeps the last trade as `last`; a trade keeps the book's bid and ask.
        #expect(try await events.nextQuote() == CommonQuote(
            symbol: "AAPL", last: exactDecimal("227.52"), timestamp: Self.milliseconds(1_731_528_912_460), bid: exactDecimal("227.5"), ask: exactDecimal("227.53")))
        #expect(try await events.nextQuote() == CommonQuote(
            symbol: "MSFT", last: exactDecimal("423.1"), timestamp: Self.milliseconds(1_731_528_912_470), bid: exactDecimal("423.09"), ask: exactDecimal("423.12")))
        #expect(try await events.nextQuote() == CommonQuote(
            symbol: "MSFT", last: exactDecimal("423.1"), timestamp: Self.milliseconds(1_731_528_912_480), bid: exactDecimal("423.2"), ask: exactDecimal("423.3")))
        await session.close()
    }

    @Test func eventsForSymbolsNotSubscribedAreDropped() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL", "MSFT"])
        await session.unsubscribe(["MSFT"])
        _ = try await socket.nextSent()
        socket.serverSends(#"[{"ev":"T","sym":"MSFT","p":423.1,"t":1},{"ev":"T","sym":"TSLA","p":250,"t":2},{"ev":"T","sym":"AAPL","p":227,"t":3}]"#)
        #expect(try await events.nextQuote() == CommonQuote(symbol: "AAPL", last: 227, timestamp: Self.milliseconds(3)))
        #expect(events.pending.isEmpty)
        await session.close()
    }

    @Test func oneSuccessStatusPerParamInOneOrSeveralFramesIsAccepted() async throws {
        let (socket, session, events) = try await Self.liveSession()
        await session.subscribe(["AAPL", "MSFT"])
        _ = try await socket.nextSent()
        socket.serverSends(#"""
            [{"ev":"status","status":"success","message":"subscribed to: T.AAPL"},
             {"ev":"status","status":"success","message":"subscribed to: Q.AAPL"}]
            """#)
        socket.serverSends(#"[{"ev":"status","status":"success","message":"subscribed to: T.MSFT"}]"#)
        socket.serverSends(#"[{"ev":"status","status":"success","message":"subscribed to: Q.MSFT"}]"#)
        socket.serverSends(#"[{"ev":"T","sym":"MSFT","p":423.1,"t":1731528912470}]"#)
        // The acknowledgements produced nothing and ended nothing: the next event is the trade.
        #expect(try await events.next() == .event(.quote(CommonQuote(symbol: "MSFT", last: exactDecimal("423.1"), timestamp: Self.milliseconds(1_731_528_912_470)))))
        await session.close()
    }

    @Test func aDroppedConnectionThrowsARetryableNetworkError() async throws {
        let (socket, _, events) = try await Self.liveSession(subscribed: ["AAPL"])
        socket.serverDrops(.network("connection reset by peer"))
        let outcome = try await events.next()
        #expect(outcome == .failed(.network("polygon stream: connection reset by peer")))
    }

    @Test func aCleanServerCloseAlsoThrowsSoTheHubReconnects() async throws {
        let (socket, _, events) = try await Self.liveSession(subscribed: ["AAPL"])
        socket.serverCloses()
        guard case .failed(let error) = try await events.next() else {
            Issue.record("a server close must throw")
            return
        }
        #expect(error == .network("polygon stream: connection closed by the server"))
        #expect(!error.isPermanent)
    }

    @Test func closeFinishesEventsWithoutAnErrorAndClosesTheSocket() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL"])
        await session.close()
        #expect(try await events.next() == .finished)
        #expect(socket.closeCode == 1000)
    }

    /// Issue 13: one malformed frame among good ones is skipped and reported; the session goes on.
    @Test func malformedFramesAreSkippedAndTheSessionGoesOn() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL"])
        socket.serverSends(#"[{"ev":"T","sym":"AAPL","p":1"#)
        socket.serverSends(#"[{"ev":"T","sym":"AAPL","p":227,"t":3}]"#)
        guard case .event(.skippedFrame(let reason)) = try await events.next() else {
            Issue.record("expected a skipped frame")
            return
        }
        #expect(reason.hasPrefix("malformed JSON"))
        #expect(try await events.nextQuote()?.last == 227)
        #expect(socket.closeCode == nil)
        await session.close()
    }

    @Test func binaryMessagesAreIgnored() async throws {
        let (socket, session, events) = try await Self.liveSession(subscribed: ["AAPL"])
        socket.serverSendsBinary([0x91, 0x80])
        socket.serverSends(#"[{"ev":"T","sym":"AAPL","p":227,"t":3}]"#)
        #expect(try await events.nextQuote()?.last == 227)
        await session.close()
    }

    @Test func aMissingKeyFailsBeforeConnecting() async {
        let socket = StreamSessionTestSocket()
        let service = PolygonStreamService(connector: socket, credentials: PolygonCredentials(apiKey: "  "))
        await #expect(throws: BrokerError.unauthorized(hint: "set POLYGON_API_KEY")) { try await service.openSession() }
        #expect(socket.connectedURL == nil)
    }

    @Test func aFailedConnectIsARetryableNetworkError() async {
        let socket = StreamSessionTestSocket(connectError: .network("connection refused"))
        let service = PolygonStreamService(connector: socket, credentials: Self.credentials)
        await #expect(throws: BrokerError.network("polygon stream: connection refused")) { try await service.openSession() }
    }

    @Test func theConfiguredURLIsTheOneConnected() async throws {
        let socket = StreamSessionTestSocket()
        let url = URL(string: "ws://127.0.0.1:8765/stocks")!
        let session = try await PolygonStreamService(connector: socket, url: url, credentials: Self.credentials).openSession()
        #expect(socket.connectedURL == url)
        await session.close()
    }

    @Test(arguments: [
        ("https://api.polygon.io", "wss://socket.polygon.io/stocks"),
        ("https://api.massive.com", "wss://socket.massive.com/stocks"),
        ("https://delayed.polygon.io", "wss://delayed.polygon.io/stocks"),
        ("http://127.0.0.1:8123", "ws://127.0.0.1:8123/stocks"),
        ("http://127.0.0.1:8123/prefix?x=1", "ws://127.0.0.1:8123/stocks"),
    ])
    func streamURLFollowsTheRESTBaseURL(base: String, expected: String) {
        #expect(PolygonStreamService.url(forBaseURL: URL(string: base)!) == URL(string: expected)!)
    }
}
