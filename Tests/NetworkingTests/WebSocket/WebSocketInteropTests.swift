import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Networking
import Testing
import TestSupport

/// `LiveWebSocketConnector` against an independent implementation, Python's `websockets`
/// (Tests/Fixtures/ws/echo_server.py), over plain TCP. The server rejects unmasked client frames, so
/// every exchange here also checks our masking; its `CLOSED` lines show what our client said on the way out.
@Suite struct WebSocketInteropTests {
    /// Short timeouts, so a failure to time out shows quickly; no heartbeat unless a test wants one.
    /// The defaults are limits that must not be reached, so they are scaled (`TestTime`); a test that
    /// expects a timeout passes its own, unscaled.
    static func connector(
        handshakeTimeout: Duration = TestTime.scaled(.seconds(3)),
        pingAfterIdle: Duration? = nil,
        pongTimeout: Duration = TestTime.scaled(.seconds(3)),
        closeTimeout: Duration = TestTime.scaled(.seconds(2)),
        maxFrameSize: Int = WebSocketFrameCodec.defaultMaxFrameSize,
        maxMessageSize: Int = WebSocketMessageAssembler.defaultMaxMessageSize,
        extraCAFile: String? = nil,
        allowInsecureTLS: Bool = false
    ) -> LiveWebSocketConnector {
        LiveWebSocketConnector(options: .init(
            connectTimeout: TestTime.scaled(.seconds(3)),
            handshakeTimeout: handshakeTimeout,
            pingAfterIdle: pingAfterIdle,
            pongTimeout: pongTimeout,
            closeTimeout: closeTimeout,
            maxFrameSize: maxFrameSize,
            maxMessageSize: maxMessageSize,
            extraCAFile: extraCAFile,
            allowInsecureTLS: allowInsecureTLS
        ))
    }

    private func connect(
        _ url: URL,
        with connector: LiveWebSocketConnector = connector(),
        headers: [String: String] = [:],
        secretNames: Set<String> = []
    ) async throws -> any WebSocketConnection {
        try await connector.connect(to: url, headers: headers, secretNames: secretNames)
    }

    /// The error `connect` threw; a failed expectation (and nil) when it succeeded.
    static func connectError(
        _ url: URL,
        with connector: LiveWebSocketConnector = connector(),
        secretNames: Set<String> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> WebSocketError? {
        do {
            let connection = try await connector.connect(to: url, headers: [:], secretNames: secretNames)
            Issue.record("connected to \(url) but expected an error", sourceLocation: sourceLocation)
            await connection.close(code: 1000, reason: "")
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Messages

    @Test func echoesTextAndBinaryMessages() async throws {
        let server = try await WebSocketInteropServer.plain()
        let url = server.url("/echo")
        let connection = try await connect(url)
        let reader = WebSocketMessageReader(connection: connection)
        // 70,000 bytes: a 64-bit length field, and more than one read and write of the I/O loop.
        let large = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let sent: [WebSocketMessage] = [
            .text("hello"),
            .text("Grüße, 世界 — 📈 AAPL ▲ 1.5 %"),
            .text(""),
            .binary([0x00, 0xFF, 0x80, 0x7F]),
            .binary(large),
            .text(String(repeating: "é", count: 40_000)),
        ]

        for message in sent {
            try await connection.send(message)
            #expect(try await reader.next() == message)
        }
        await connection.close(code: 1000, reason: "done")

        #expect(try await reader.end().end == .finished)
        #expect(await server.closeReport(for: url) == "1000 done")
    }

    @Test func upgradeRequestCarriesHostPathQueryAndOurHeaders() async throws {
        let server = try await WebSocketInteropServer.plain()
        let url = server.url("/headers?symbols=AAPL,MSFT")
        let connection = try await connect(url, headers: ["Authorization": "Bearer s3cret-token", "X-Client": "commonbroker"], secretNames: ["Authorization"])

        guard case .text(let json) = try await WebSocketMessageReader(connection: connection).next() else {
            Issue.record("expected the request as JSON text")
            return
        }
        let report = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        let headers = Dictionary(uniqueKeysWithValues: (report["headers"] as! [String: String]).map { ($0.key.lowercased(), $0.value) })
        #expect(report["path"] as? String == WebSocketInteropServer.requestTarget(of: url))
        #expect(headers["host"] == "127.0.0.1:\(server.port)")
        #expect(headers["authorization"] == "Bearer s3cret-token")
        #expect(headers["x-client"] == "commonbroker")
        #expect(headers["sec-websocket-version"] == "13")
        #expect(headers["sec-websocket-extensions"] == nil, "we offer no compression")
        #expect(report["sni"] is NSNull, "no TLS, no SNI")
        await connection.close(code: 1000, reason: "")
    }

    @Test func fragmentedMessagesArriveWhole() async throws {
        let server = try await WebSocketInteropServer.plain()
        let connection = try await connect(server.url("/fragmented"))
        let reader = WebSocketMessageReader(connection: connection)

        #expect(try await reader.next() == .text("Hello, wörld"))
        #expect(try await reader.next() == .binary([0x00, 0x01, 0x02]))
        await connection.close(code: 1000, reason: "")
    }

    /// The server sends "pong received" only after our pong (with its payload) reached it.
    @Test func serverPingIsAnsweredWithPong() async throws {
        let server = try await WebSocketInteropServer.plain()
        let url = server.url("/ping")
        let connection = try await connect(url)

        #expect(try await WebSocketMessageReader(connection: connection).next() == .text("pong received"))
        await connection.close(code: 1000, reason: "")
        #expect(await server.closeReport(for: url) == "1000 ")
    }

    // MARK: - Closing

    @Test func serverCloseWithAnErrorCodeFailsMessagesAndIsEchoed() async throws {
        let server = try await WebSocketInteropServer.plain()
        let url = server.url("/close/4001/going%20away%20now")
        let connection = try await connect(url)

        let (messages, end) = try await WebSocketMessageReader(connection: connection).end()

        #expect(messages.isEmpty)
        #expect(end == .failed(.closed(code: 4001, reason: "going away now")))
        #expect(await server.closeReport(for: url) == "4001 ", "the client echoes the code (RFC 6455 §5.5.1)")
        await #expect(throws: WebSocketError.self, "sending after the close") { try await connection.send(.text("late")) }
    }

    @Test func serverNormalClosureFinishesMessagesCleanly() async throws {
        let server = try await WebSocketInteropServer.plain()
        let url = server.url("/close/1000/bye")
        let connection = try await connect(url)

        #expect(try await WebSocketMessageReader(connection: connection).end().end == .finished)
        #expect(await server.closeReport(for: url) == "1000 ")
    }

    /// An unsendable code (1005 is for reporting only) goes out as 1000.
    @Test(arguments: [(UInt16(1000), "bye", "1000 bye"), (4000, "resubscribing", "4000 resubscribing"), (1005, "", "1000 ")])
    func clientCloseSendsOurCodeAndReason(code: UInt16, reason: String, expected: String) async throws {
        let server = try await WebSocketInteropServer.plain()
        let url = server.url("/echo")
        let connection = try await connect(url)
        let reader = WebSocketMessageReader(connection: connection)
        try await connection.send(.text("ping?"))
        #expect(try await reader.next() == .text("ping?"))

        await connection.close(code: code, reason: reason)

        #expect(try await reader.end().end == .finished)
        #expect(await server.closeReport(for: url) == expected)
    }

    /// A server that stopped reading never answers our close frame: `close` hangs up after its timeout.
    @Test func closeGivesUpOnAServerThatNeverAnswers() async throws {
        let server = try await WebSocketInteropServer.plain()
        let connection = try await connect(server.url("/mute"), with: Self.connector(closeTimeout: .milliseconds(300)))
        let started = ContinuousClock.now

        await connection.close(code: 1000, reason: "bye")

        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(300) && elapsed < TestTime.scaled(.seconds(3)), "\(elapsed)")
        #expect(try await WebSocketMessageReader(connection: connection).end(within: .seconds(1)).end == .finished)
    }

    @Test func cancellingTheReaderClosesWithGoingAway() async throws {
        let server = try await WebSocketInteropServer.plain()
        let url = server.url("/echo")
        let connection = try await connect(url)
        let reading = Task { for try await _ in connection.messages {} }

        reading.cancel()

        #expect(await server.closeReport(for: url) == "1001 ")
    }

    // MARK: - Broken peers

    @Test func disconnectInTheMiddleOfAFrameIsAnErrorNotAHang() async throws {
        let server = try await WebSocketInteropServer.plain()
        let connection = try await connect(server.url("/drop-mid-frame"))

        let (messages, end) = try await WebSocketMessageReader(connection: connection).end()

        #expect(messages.isEmpty)
        guard case .failed(.network(let detail)) = end else {
            Issue.record("expected a network error, got \(end)")
            return
        }
        #expect(detail.contains("lost"))
    }

    @Test func invalidUTF8IsAProtocolErrorClosedWith1007() async throws {
        let server = try await WebSocketInteropServer.plain()
        let url = server.url("/invalid-utf8")
        let connection = try await connect(url)

        let end = try await WebSocketMessageReader(connection: connection).end().end

        guard case .failed(.protocolViolation(let detail)) = end else {
            Issue.record("expected a protocol violation, got \(end)")
            return
        }
        #expect(detail.contains("UTF-8"))
        #expect(await server.closeReport(for: url)?.hasPrefix("1007 ") == true)
    }

    @Test func messageUpToTheLimitArrives() async throws {
        let server = try await WebSocketInteropServer.plain()
        let connection = try await connect(server.url("/big/65536"), with: Self.connector(maxMessageSize: 65536))

        #expect(try await WebSocketMessageReader(connection: connection).next() == .binary([UInt8](repeating: 0x2A, count: 65536)))
        await connection.close(code: 1000, reason: "")
    }

    @Test func messageOverTheLimitIsClosedWith1009() async throws {
        let server = try await WebSocketInteropServer.plain()
        let url = server.url("/big/65537")
        let connection = try await connect(url, with: Self.connector(maxMessageSize: 65536))

        let end = try await WebSocketMessageReader(connection: connection).end().end

        guard case .failed(.protocolViolation(let detail)) = end else {
            Issue.record("expected a protocol violation, got \(end)")
            return
        }
        #expect(detail.contains("65536"))
        #expect(await server.closeReport(for: url)?.hasPrefix("1009 ") == true)
    }

    /// The frame limit is checked on the header, before the payload is buffered.
    @Test func frameOverTheLimitIsClosedWith1009() async throws {
        let server = try await WebSocketInteropServer.plain()
        let url = server.url("/big/5000")
        let connection = try await connect(url, with: Self.connector(maxFrameSize: 4096))

        let end = try await WebSocketMessageReader(connection: connection).end().end

        guard case .failed(.protocolViolation(let detail)) = end else {
            Issue.record("expected a protocol violation, got \(end)")
            return
        }
        #expect(detail.contains("5000") && detail.contains("4096"))
        #expect(await server.closeReport(for: url)?.hasPrefix("1009 ") == true)
    }

    /// Our own limit applies to what we send, too: refused before anything reaches the wire.
    @Test func outgoingFrameOverTheLimitIsRefused() async throws {
        let server = try await WebSocketInteropServer.plain()
        let connection = try await connect(server.url("/echo"), with: Self.connector(maxFrameSize: 4096))
        let reader = WebSocketMessageReader(connection: connection)

        await #expect(throws: WebSocketError.self) { try await connection.send(.binary([UInt8](repeating: 1, count: 4097))) }
        try await connection.send(.text("still open"))
        #expect(try await reader.next() == .text("still open"))
        await connection.close(code: 1000, reason: "")
    }

    // MARK: - Timeouts and refusals

    @Test func serverThatNeverAnswersTheUpgradeTimesOut() async throws {
        let server = try await WebSocketInteropServer.plain()
        let started = ContinuousClock.now

        let error = await Self.connectError(server.url("/hang"), with: Self.connector(handshakeTimeout: .milliseconds(300)))

        let elapsed = ContinuousClock.now - started
        guard case .timedOut(let detail)? = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("upgrade"))
        #expect(elapsed >= .milliseconds(300) && elapsed < TestTime.scaled(.seconds(3)), "\(elapsed)")
    }

    @Test func refusedUpgradeReportsStatusAndBodyWithoutSecrets() async throws {
        let server = try await WebSocketInteropServer.plain()

        let error = await Self.connectError(server.url("/status/401?token=s3cret-value"), secretNames: ["token"])

        guard case .handshakeFailed(let status, let reason)? = error else {
            Issue.record("expected a refused upgrade, got \(String(describing: error))")
            return
        }
        #expect(status == 401)
        #expect(reason.contains("Unauthorized") && reason.contains("token rejected"), "\(reason)")
        #expect(!reason.contains("s3cret"), "the server quoted the URL; the secret must be redacted: \(reason)")
        #expect(!error!.description.contains("s3cret"))
    }

    @Test func secretsInACloseReasonAreRedacted() async throws {
        let server = try await WebSocketInteropServer.plain()
        let connection = try await connect(server.url("/close/4003/key%20s3cret-value%20revoked?apiKey=s3cret-value"), secretNames: ["apiKey"])

        let end = try await WebSocketMessageReader(connection: connection).end().end

        guard case .failed(.closed(let code, let reason)) = end else {
            Issue.record("expected a close, got \(end)")
            return
        }
        #expect(code == 4003)
        #expect(reason.contains("revoked") && !reason.contains("s3cret"), "\(reason)")
    }

    @Test func silentServerTimesOutWhenPingsGoUnanswered() async throws {
        let server = try await WebSocketInteropServer.plain()
        // Before connecting: the silence is counted from the upgrade, which `connect` returns after.
        let started = ContinuousClock.now
        let connection = try await connect(server.url("/mute"), with: Self.connector(pingAfterIdle: .milliseconds(200), pongTimeout: .milliseconds(400)))

        let end = try await WebSocketMessageReader(connection: connection).end().end

        guard case .failed(.timedOut(let detail)) = end else {
            Issue.record("expected a timeout, got \(end)")
            return
        }
        #expect(detail.contains("no data"))
        #expect(ContinuousClock.now - started >= .milliseconds(600))
    }

    /// Quiet for longer than ping + pong timeout, but answering every ping: the heartbeat keeps it alive.
    /// The pong timeout must not fire, so it is scaled (`TestTime`), and the quiet with it, to stay longer.
    @Test func quietServerThatAnswersPingsStaysConnected() async throws {
        let server = try await WebSocketInteropServer.plain()
        let quietSeconds = 1.5 * Double(TestTime.scale)
        let connection = try await connect(server.url("/silent/\(quietSeconds)"), with: Self.connector(pingAfterIdle: .milliseconds(200), pongTimeout: TestTime.scaled(.seconds(1))))

        #expect(try await WebSocketMessageReader(connection: connection).next() == .text("still here"))
        await connection.close(code: 1000, reason: "")
    }

    @Test func closedPortIsANetworkError() async throws {
        // Bound and not listening, held until the end: no other test's server can take the port meanwhile.
        let reserved = try LoopbackListener(listening: false)
        defer { reserved.close() }
        let port = reserved.port

        let error = await Self.connectError(URL(string: "ws://127.0.0.1:\(port)/echo")!)

        guard case .network(let detail)? = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("refused") && detail.contains("127.0.0.1:\(port)"), "\(detail)")
    }
}
