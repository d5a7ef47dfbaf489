import Foundation
import TestSupport
import Testing

/// `--replay` answers from recordings and sends nothing, so anyone can run it without broker keys.
@Suite(.serialized) struct ReplayEndToEndTests {
    var binary: String { CommonBrokerBinary.path }

    func rows(_ output: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]], "not JSON: \(output)")
    }

    /// Recorded with the keys in the environment (the config holds none), replayed with an empty
    /// environment (HOME alone): before, every row said "unauthorized, set TRADIER_TOKEN".
    @Test func aRecordingReplaysWithAnEmptyEnvironment() async throws {
        let server = try await FixtureServer.start(root: FixtureServer.fixturesDirectory)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("cb-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let config = work.appendingPathComponent("config.json").path
        let text = #"{"brokers": {"tradier": {"enabled": true, "baseURL": "BASE"}, "polygon": {"enabled": true, "baseURL": "BASE"}}}"#
            .replacingOccurrences(of: "BASE", with: server.baseURL.absoluteString)
        #expect(FileManager.default.createFile(atPath: config, contents: Data(text.utf8)))
        let recordings = work.appendingPathComponent("recordings").path
        let arguments = ["print", "--json", "--config", config, "--symbols", "AAPL,MSFT"]

        let recorded = try await Subprocess.run(binary, arguments + ["--record", recordings], environment: [
            "HOME": work.path, "TRADIER_TOKEN": "test-token", "POLYGON_API_KEY": "test-key",
        ])
        await server.stop()
        #expect(recorded.status == 0, "\(recorded.output)")
        let recordedRows = try rows(recorded.output)
        #expect(recordedRows.allSatisfy { $0["error"] is NSNull }, "\(recorded.output)")

        // Nothing but HOME (start-up resolves the state directory even with --symbols).
        let replayed = try await Subprocess.run(binary, arguments + ["--replay", recordings], environment: ["HOME": work.path])
        #expect(replayed.status == 0, "\(replayed.output)")
        let replayedRows = try rows(replayed.output)
        #expect(replayedRows.allSatisfy { $0["error"] is NSNull }, "\(replayed.output)")
        #expect(replayedRows.compactMap { $0["last"] as? Double } == recordedRows.compactMap { $0["last"] as? Double })
        #expect(replayedRows.count == 4)
        #expect(!replayed.output.contains("replay-needs-no-credentials"))
    }
}
