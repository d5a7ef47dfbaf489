import Foundation
import TestSupport
import Testing

/// The real binary against the local fixture server, which answers byte for byte like each broker's API.
@Suite(.serialized) struct RealBrokersEndToEndTests {
    let server: FixtureServer
    let work: URL

    init() async throws {
        server = try await FixtureServer.start(root: FixtureServer.fixturesDirectory)
        work = FileManager.default.temporaryDirectory.appendingPathComponent("cb-real-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    var binary: String { CommonBrokerBinary.path }

    /// Writes a config (mode 0600, as for any file holding secrets) with these broker sections.
    func config(_ brokers: String, symbols: String = #"["AAPL", "MSFT"]"#) throws -> String {
        let path = work.appendingPathComponent("config-\(UUID().uuidString).json").path
        let text = #"{"symbols": \#(symbols), "brokers": {\#(brokers)}}"#
            .replacingOccurrences(of: "BASE", with: server.baseURL.absoluteString)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        return path
    }

    func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await Subprocess.run(binary, arguments, environment: [
            "HOME": work.path, "XDG_STATE_HOME": work.appendingPathComponent("state").path, "PATH": "/usr/bin:/bin",
        ])
    }

    func rows(_ output: String) throws -> [[String: Any]] {
        let data = Data(output.utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]], "not JSON: \(output)")
    }

    static let sections: [(id: String, section: String)] = [
        ("tradier", #""tradier": {"enabled": true, "baseURL": "BASE", "token": "test-token"}"#),
        ("alpaca", #""alpaca": {"enabled": true, "baseURL": "BASE", "keyId": "test-key-id", "secretKey": "test-secret"}"#),
        ("finnhub", #""finnhub": {"enabled": true, "baseURL": "BASE", "token": "test-token"}"#),
        ("polygon", #""polygon": {"enabled": true, "baseURL": "BASE", "apiKey": "test-key"}"#),
    ]

    @Test(arguments: sections.map(\.id))
    func printJSONQuotesEachBroker(_ broker: String) async throws {
        let section = try #require(Self.sections.first { $0.id == broker }).section
        let result = try await run(["print", "--json", "--config", try config(section)])
        #expect(result.status == 0, "\(result.output)")
        let rows = try rows(result.output)
        #expect(rows.compactMap { $0["id"] as? String } == ["\(broker):AAPL", "\(broker):MSFT"])
        let aapl = try #require(rows.first)
        #expect(aapl["last"] as? Double == 227.52)
        #expect(aapl["error"] is NSNull)
        #expect(aapl["brand"] as? String == broker)
    }

    @Test func rejectedCredentialsAreRowErrorsAndTheExitStatusSaysNothingWasQuoted() async throws {
        let result = try await run(["print", "--json", "--config", try config(#""tradier": {"enabled": true, "baseURL": "BASE", "token": "wrong"}"#)])
        #expect(result.status == 1)
        let rows = try rows(result.output)
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0["error"] as? String == "unauthorized, check TRADIER_TOKEN" })
        #expect(!result.output.contains("wrong"), "a secret reached the output")
    }

    @Test func recordThenReplayWithoutTheServerAndNoSecretOnDisk() async throws {
        let path = try config(Self.sections[0].section + ", " + Self.sections[3].section)
        let recordings = work.appendingPathComponent("recordings").path
        let recorded = try await run(["print", "--json", "--config", path, "--record", recordings])
        #expect(recorded.status == 0, "\(recorded.output)")
        _ = await server.stop()

        let replayed = try await run(["print", "--json", "--config", path, "--replay", recordings])
        #expect(replayed.status == 0, "\(replayed.output)")
        #expect(try rows(replayed.output).map { $0["last"] as? Double } == rows(recorded.output).map { $0["last"] as? Double })

        let files = try FileManager.default.contentsOfDirectory(atPath: recordings)
        #expect(files.count >= 3, "expected a Tradier batch and two Polygon snapshots: \(files)")
        for file in files {
            let bytes = try String(contentsOfFile: recordings + "/" + file, encoding: .utf8)
            #expect(!bytes.contains("test-token") && !bytes.contains("test-key"), "secret in \(file)")
        }
    }

    @Test func twoRealBrokersAndTheDemoOnOneScreenWithOneFailing() async throws {
        let path = try config("""
            "tradier": {"enabled": true, "baseURL": "BASE", "token": "test-token", "stream": false, "pollIntervalSeconds": 1},
            "finnhub": {"enabled": true, "baseURL": "BASE", "token": "revoked", "stream": false},
            "demo": {"enabled": true, "seed": 5, "tickIntervalMs": 100}
            """)
        let session = try await TmuxSession(columns: 110, rows: 24, environment: ["XDG_STATE_HOME": "$PWD/state"])
        try await session.type("\(binary) --config \(path)")
        let screen = try await session.waitForScreen { screen in
            screen.contains("Finnhub: unauthorized, check FINNHUB_TOKEN")
                && screen.split(separator: "\n").contains { $0.contains("AAPL") && $0.contains("Tradier") && $0.contains("227.52") }
                && screen.split(separator: "\n").contains { $0.contains("MSFT") && $0.contains("Finnhub") && $0.contains("unauthorized") }
        }
        #expect(screen != nil, "expected Tradier quotes, Finnhub's 401 and the demo together:\n\(session.lastScreen)")
        #expect(screen?.contains("DEMO") == true)
        #expect(screen?.contains("revoked") == false, "a secret reached the screen")

        // The demo keeps updating while Finnhub stays failed.
        func demoLine(_ screen: String) -> String? { screen.split(separator: "\n").first { $0.contains("AAPL") && $0.contains("Alpha Demo") }.map(String.init) }
        let before = try #require(screen.flatMap(demoLine))
        let moved = try await session.waitForScreen { screen in demoLine(screen).map { $0.prefix(60) != before.prefix(60) } ?? false }
        #expect(moved != nil, "the demo row did not update:\n\(session.lastScreen)")

        // The accounts panel shows Tradier's balances from the fixture.
        try await session.send("A")
        #expect(try await session.waitFor("6YA05708") != nil, "accounts panel:\n\(session.lastScreen)")
        #expect(session.lastScreen.contains("17,798.36"))
        try await session.send("q")
        #expect(try await session.waitForPrompt())
    }
}
