import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Networking
import COpenSSL
import Testing
import TestSupport

/// `wss://` against Python's `websockets` over Python's ssl module, with certificates from a CA made
/// for this test run (`ThrowawayCertificateAuthority`): verification against the system store plus the
/// configured CA file, the hostname and IP checks, SNI, and the explicit insecure opt-in.
@Suite struct WebSocketTLSInteropTests {
    private static func connector(trustingTestCA: Bool, allowInsecureTLS: Bool = false, handshakeTimeout: Duration = TestTime.scaled(.seconds(3))) async throws -> LiveWebSocketConnector {
        let caFile = trustingTestCA ? try await ThrowawayCertificateAuthority.shared().certificateFile : nil
        return WebSocketInteropTests.connector(handshakeTimeout: handshakeTimeout, extraCAFile: caFile, allowInsecureTLS: allowInsecureTLS)
    }

    /// The `.tls` detail of the error `connect` threw; a failed expectation otherwise.
    private func tlsError(_ url: URL, with connector: LiveWebSocketConnector, sourceLocation: SourceLocation = #_sourceLocation) async -> String? {
        let error = await WebSocketInteropTests.connectError(url, with: connector, sourceLocation: sourceLocation)
        guard case .tls(let detail)? = error else {
            Issue.record("expected a TLS error, got \(String(describing: error))", sourceLocation: sourceLocation)
            return nil
        }
        return detail
    }

    // MARK: - Verified connections

    @Test func echoesOverACertificateFromTheConfiguredCA() async throws {
        let server = try await WebSocketInteropServer.tls()
        let url = server.url("/echo")
        let connection = try await Self.connector(trustingTestCA: true).connect(to: url, headers: [:], secretNames: [])
        let reader = WebSocketMessageReader(connection: connection)
        // Larger than a TLS record (16 KiB) and than one read: records split across reads, partial writes.
        let large = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        let sent: [WebSocketMessage] = [.text("Grüße, 世界 📈"), .binary([0, 1, 2, 0xFF]), .binary(large), .text("after")]

        for message in sent {
            try await connection.send(message)
            #expect(try await reader.next() == message)
        }
        await connection.close(code: 1000, reason: "done")

        #expect(try await reader.end().end == .finished)
        #expect(await server.closeReport(for: url) == "1000 done")
    }

    /// RFC 6066 §3: a DNS name goes out as SNI, an IP literal does not.
    @Test func sniCarriesTheDNSNameAndNeverAnIPAddress() async throws {
        let server = try await WebSocketInteropServer.tls()
        let connector = try await Self.connector(trustingTestCA: true)

        for (host, expectedSNI) in [("localhost", "localhost" as String?), ("127.0.0.1", nil)] {
            let connection = try await connector.connect(to: server.url("/headers", host: host), headers: [:], secretNames: [])
            guard case .text(let json) = try await WebSocketMessageReader(connection: connection).next() else {
                Issue.record("expected the request as JSON text")
                return
            }
            let report = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
            let headers = Dictionary(uniqueKeysWithValues: (report["headers"] as! [String: String]).map { ($0.key.lowercased(), $0.value) })
            #expect(report["sni"] as? String == expectedSNI, "\(host): \(String(describing: report["sni"]))")
            #expect(headers["host"] == "\(host):\(server.port)")
            await connection.close(code: 1000, reason: "")
        }
    }

    @Test func serverCloseWithACodeIsEchoedOverTLS() async throws {
        let server = try await WebSocketInteropServer.tls()
        let url = server.url("/close/4002/maintenance")
        let connection = try await Self.connector(trustingTestCA: true).connect(to: url, headers: [:], secretNames: [])

        #expect(try await WebSocketMessageReader(connection: connection).end().end == .failed(.closed(code: 4002, reason: "maintenance")))
        #expect(await server.closeReport(for: url) == "4002 ")
    }

    /// Without close_notify, OpenSSL reports the lost connection as a syscall error: still a network error.
    @Test func disconnectInTheMiddleOfAFrameIsANetworkErrorOverTLS() async throws {
        let server = try await WebSocketInteropServer.tls()
        let connection = try await Self.connector(trustingTestCA: true).connect(to: server.url("/drop-mid-frame"), headers: [:], secretNames: [])

        let (messages, end) = try await WebSocketMessageReader(connection: connection).end()

        #expect(messages.isEmpty)
        #expect(end == .failed(.network("connection lost")))
    }

    @Test func invalidUTF8OverTLSIsClosedWith1007() async throws {
        let server = try await WebSocketInteropServer.tls()
        let url = server.url("/invalid-utf8")
        let connection = try await Self.connector(trustingTestCA: true).connect(to: url, headers: [:], secretNames: [])

        let end = try await WebSocketMessageReader(connection: connection).end().end

        guard case .failed(.protocolViolation) = end else {
            Issue.record("expected a protocol violation, got \(end)")
            return
        }
        #expect(await server.closeReport(for: url)?.hasPrefix("1007 ") == true)
    }

    @Test func refusedUpgradeOverTLSReportsStatusAndBody() async throws {
        let server = try await WebSocketInteropServer.tls()

        let error = await WebSocketInteropTests.connectError(server.url("/status/403?apiKey=s3cret-value"), with: try await Self.connector(trustingTestCA: true), secretNames: ["apiKey"])

        guard case .handshakeFailed(403, let reason)? = error else {
            Issue.record("expected a 403 refusal, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("token rejected") && !reason.contains("s3cret"), "\(reason)")
    }

    // MARK: - Verification

    /// The throwaway CA is in no system store: without the CA file the chain cannot be verified, and the
    /// error says so as an untrusted issuer (OpenSSL's verify result), which brokers make permanent.
    @Test(arguments: ["127.0.0.1", "localhost"])
    func unknownCAIsRejectedAsAnUntrustedIssuer(host: String) async throws {
        let server = try await WebSocketInteropServer.tls()

        let error = await WebSocketInteropTests.connectError(server.url("/echo", host: host), with: try await Self.connector(trustingTestCA: false))

        #expect(error == .certificateRejected(.untrustedIssuer(host: host, reason: "unable to get local issuer certificate")))
        #expect(error?.description == "TLS: certificate of \(host) not trusted: unable to get local issuer certificate")
    }

    /// A chain the client trusts, for another name: refused as a host mismatch naming the host we dialled.
    @Test(arguments: ["127.0.0.1", "localhost"])
    func certificateForAnotherHostIsRejectedAsAHostMismatch(host: String) async throws {
        let server = try await WebSocketInteropServer.tlsForOtherHost()

        let error = await WebSocketInteropTests.connectError(server.url("/echo", host: host), with: try await Self.connector(trustingTestCA: true))

        #expect(error == .certificateRejected(.hostMismatch(host: host)))
        #expect(error?.description == "TLS: certificate does not match host \(host)")
    }

    /// The verify results are told apart as OpenSSL defines them; anything else keeps OpenSSL's words.
    @Test func verifyResultsMapToRejections() {
        #expect(TLSTransport.rejection(verifyResult: Int(X509_V_ERR_HOSTNAME_MISMATCH), host: "a.test") == .hostMismatch(host: "a.test"))
        #expect(TLSTransport.rejection(verifyResult: Int(X509_V_ERR_IP_ADDRESS_MISMATCH), host: "10.0.0.1") == .hostMismatch(host: "10.0.0.1"))
        #expect(TLSTransport.rejection(verifyResult: Int(X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT), host: "a.test")
            == .untrustedIssuer(host: "a.test", reason: "self-signed certificate"))
        #expect(TLSTransport.rejection(verifyResult: Int(X509_V_ERR_CERT_HAS_EXPIRED), host: "a.test")
            == .invalid(host: "a.test", reason: "certificate has expired"))
    }

    /// A CA file that cannot be read must fail the connection, never quietly fall back to anything.
    @Test func unreadableCAFileIsAnError() async throws {
        let server = try await WebSocketInteropServer.tls()
        let connector = WebSocketInteropTests.connector(extraCAFile: "/nonexistent/commonbroker-ca.pem")

        let detail = await tlsError(server.url("/echo"), with: connector)

        #expect(detail?.contains("cannot load CA file /nonexistent/commonbroker-ca.pem") == true, "\(detail ?? "")")
    }

    /// Only an explicit `allowInsecureTLS` gets past an unknown CA or a wrong name.
    @Test func insecureOptInConnectsDespiteUnknownCAAndWrongHost() async throws {
        let connector = try await Self.connector(trustingTestCA: false, allowInsecureTLS: true)
        for server in [try await WebSocketInteropServer.tls(), try await WebSocketInteropServer.tlsForOtherHost()] {
            let connection = try await connector.connect(to: server.url("/echo"), headers: [:], secretNames: [])
            try await connection.send(.text("unverified"))
            #expect(try await WebSocketMessageReader(connection: connection).next() == .text("unverified"))
            await connection.close(code: 1000, reason: "")
        }
    }

    // MARK: - Broken peers

    /// wss:// to a ws:// server: websockets drops a request line it cannot parse (our ClientHello), so
    /// the handshake ends in EOF, which is the peer going away (a network error), and promptly: with a
    /// handshake timeout far beyond any test, only the EOF can end it with that error. (A wall-clock
    /// bound of 3 s here failed once under load, at 4.6 s, the CA set-up included.)
    @Test func tlsToAPlainServerFailsPromptly() async throws {
        let server = try await WebSocketInteropServer.plain()
        let connector = try await Self.connector(trustingTestCA: true, handshakeTimeout: .seconds(600))

        let error = await WebSocketInteropTests.connectError(server.url("/echo", scheme: "wss"), with: connector)

        #expect(error == .network("connection lost during the TLS handshake with 127.0.0.1"))
    }

    @Test func serverThatNeverAnswersTheUpgradeTimesOutOverTLS() async throws {
        let server = try await WebSocketInteropServer.tls()
        let connector = try await Self.connector(trustingTestCA: true, handshakeTimeout: .milliseconds(300))

        let error = await WebSocketInteropTests.connectError(server.url("/hang"), with: connector)

        guard case .timedOut(let detail)? = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("upgrade"))
    }

    /// A listener that never accepts: TCP connects (the kernel's backlog), the ClientHello goes
    /// unanswered, and the handshake timeout covers the TLS handshake itself.
    @Test func tlsHandshakeThatNeverCompletesTimesOut() async throws {
        let listener = try LoopbackListener()
        defer { listener.close() }
        let connector = try await Self.connector(trustingTestCA: true, handshakeTimeout: .milliseconds(300))

        let error = await WebSocketInteropTests.connectError(URL(string: "wss://127.0.0.1:\(listener.port)/echo")!, with: connector)

        // The timeout error is the proof; no wall-clock bound, which a loaded machine can break.
        guard case .timedOut = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
    }
}
