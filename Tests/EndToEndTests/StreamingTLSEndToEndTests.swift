import Foundation
import TestSupport
import Testing

/// Issue 13 (6): the real binary with Finnhub's stream on `wss://` (the stream fixture server with
/// `--tls`) and its REST snapshots on plain HTTP. A certificate the app cannot trust, or one for another
/// host, ends as a permanent `failed: …` in the footer that says what to set, instead of `reconnecting 7`,
/// `reconnecting 8`, … forever. Certificates are made with `openssl` for this test only.
@Suite(.serialized) struct StreamingTLSEndToEndTests {
    let work: URL

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("cb-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    var binary: String { CommonBrokerBinary.path }

    /// A self-signed certificate (its own CA) valid for `alternativeNames`; returns (certificate, key).
    func selfSignedCertificate(_ name: String, alternativeNames: String) async throws -> (String, String) {
        let certificate = work.appendingPathComponent("\(name).pem").path
        let key = work.appendingPathComponent("\(name).key").path
        let result = try await Subprocess.run("/usr/bin/env", [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=\(name)", "-addext", "subjectAltName=\(alternativeNames)",
        ])
        try #require(result.status == 0, "openssl: \(result.output)")
        return (certificate, key)
    }

    func run(certificate: (String, String), caFile: String?, expectedFooter: String) async throws {
        let rest = try await StreamingEndToEndTests.startServer("finnhub", interval: "0.25")
        let stream = try await PythonPeer.start(script: StreamingEndToEndTests.script, arguments: [
            "--broker", "finnhub", "--port", "0", "--interval", "0.25", "--tls", certificate.0, certificate.1,
        ])
        let tls = caFile.map { #", "tls": {"caFile": "\#($0)"}"# } ?? ""
        let text = #"{"symbols": ["AAPL"]\#(tls), "brokers": {"finnhub": {"enabled": true, "stream": true, "#
            + #""baseURL": "http://127.0.0.1:\#(rest.port)", "streamURL": "wss://127.0.0.1:\#(stream.port)", "token": "test-token"}}}"#
        let path = work.appendingPathComponent("config.json").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        let session = try await TmuxSession(columns: 120, rows: 20, environment: ["XDG_STATE_HOME": "$PWD/state"])
        try await session.type("\(binary) --config \(path)")

        let failed = try await session.waitForScreen { $0.contains("Finnhub failed: \(expectedFooter)") }
        #expect(failed != nil, "expected 'failed: \(expectedFooter)' in the footer:\n\(session.lastScreen)")
        #expect(!session.lastScreen.contains("reconnecting"), "\(session.lastScreen)")

        try await session.send("q")
        #expect(try await session.waitForPrompt(), "the app did not quit:\n\(session.lastScreen)")
        await stream.stop()
        await rest.stop()
    }

    @Test func aCertificateFromAnUntrustedCAFailsPermanentlyAskingForACAFile() async throws {
        let certificate = try await selfSignedCertificate("loopback", alternativeNames: "IP:127.0.0.1,DNS:localhost")
        try await run(certificate: certificate, caFile: nil, expectedFooter: "certificate not trusted (set tls.caFile)")
    }

    /// Trusted through `tls.caFile`, but issued for another name than the one the app dials.
    @Test func aTrustedCertificateForAnotherHostFailsPermanentlyNamingTheHost() async throws {
        let certificate = try await selfSignedCertificate("other.test", alternativeNames: "DNS:other.test")
        try await run(certificate: certificate, caFile: certificate.0, expectedFooter: "certificate does not match host 127.0.0.1")
    }
}
