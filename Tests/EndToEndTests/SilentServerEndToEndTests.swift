import Foundation
import TestSupport
import Testing

/// The soak's paused broker (issue 18 part 3), on the real binary: `print` asks a broker whose server
/// accepts the connection, reads the request and never answers. URLSession spun at 47–83 % of a core until
/// such a request timed out; the app's own HTTP client sleeps in poll().
@Suite struct SilentServerEndToEndTests {
    /// The app's CPU is its own (wait4's rusage), so the tests running beside it do not count. Its 10 s
    /// wait for the answer is most of the run; start-up and the report take a few tenths of a second of
    /// CPU, so 20 % of the wall time is generous for a client that sleeps and far below one that spins.
    @Test func printWaitsForASilentBrokerWithoutSpinningAndSaysItTimedOut() async throws {
        let server = try await PythonPeer.start(script: PythonPeer.repositoryRoot.appendingPathComponent("Tests/Fixtures/http/keepalive_server.py"))
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("cb-silent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let config = work.appendingPathComponent("config.json").path
        let text = #"{"symbols": ["AAPL"], "brokers": {"tradier": {"enabled": true, "baseURL": "http://127.0.0.1:\#(server.port)/silent", "token": "test-token"}}}"#
        #expect(FileManager.default.createFile(atPath: config, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))

        let result = try await Subprocess.runMeasuringCPU(CommonBrokerBinary.path, ["print", "--json", "--config", config], environment: [
            "HOME": work.path, "XDG_STATE_HOME": work.appendingPathComponent("state").path, "PATH": "/usr/bin:/bin",
        ])

        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("timed out (127.0.0.1:\(server.port))"), "\(result.output)")
        #expect(await server.line(where: { $0.hasPrefix("SILENT ") && $0.contains("/silent/v1/markets/quotes") }, timeout: .seconds(1)) != nil,
                "the request reached the server")
        #expect(result.cpu < result.wall * 0.2, "the app used \(result.cpu) of CPU in \(result.wall)")
        _ = await server.stop()
    }
}
