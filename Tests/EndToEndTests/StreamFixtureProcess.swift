import Foundation
import TestSupport

/// One broker's Tests/Fixtures/streams/stream_fixture_server.py that several processes connect to, its
/// control lines (CONNECTED, AUTH ok|limit, SUBSCRIBED …, DISCONNECTED) kept in a file so a test can
/// count them: "exactly one connection" is a count, which `PythonPeer`'s first-match wait cannot give.
final class StreamFixtureProcess {
    let broker: String
    let port: Int
    private let process: LoggedProcess

    static let script = PythonPeer.repositoryRoot.appendingPathComponent("Tests/Fixtures/streams/stream_fixture_server.py")

    /// Starts it on a port of its own choosing and waits for its `LISTENING <port>` line.
    init(_ broker: String, interval: String, logs: URL) async throws {
        self.broker = broker
        let routes = FixtureServer.fixturesDirectory.appendingPathComponent(broker).path
        process = try LoggedProcess(PythonPeer.interpreter, [
            "-u", Self.script.path, "--broker", broker, "--port", "0", "--interval", interval, "--routes", routes, "--forever",
        ] + TestTime.streamFixtureAuthTimeout, logs: logs, name: "fixture-\(broker)")
        let listening = try await process.waitForOutput(timeout: .seconds(15)) { $0.contains { $0.hasPrefix("LISTENING ") } }
        guard let line = listening?.first(where: { $0.hasPrefix("LISTENING ") }), let port = Int(line.dropFirst("LISTENING ".count)) else {
            try await process.stop()
            throw PythonPeer.Failure(description: "the \(broker) stream fixture did not listen: \(process.errorLines().suffix(10).joined(separator: "\n"))")
        }
        self.port = port
    }

    var lines: [String] { process.outputLines() }

    func count(_ line: String) -> Int { lines.count { $0 == line || $0.hasPrefix(line + " ") } }

    /// WebSockets open now: every connection, refused ones included, prints CONNECTED and then DISCONNECTED.
    var openConnections: Int { count("CONNECTED") - count("DISCONNECTED") }

    /// Waits (bounded) until its lines satisfy `condition`; false if they did not.
    func waitFor(timeout: Duration = .seconds(15), _ condition: ([String]) -> Bool) async throws -> Bool {
        try await process.waitForOutput(timeout: timeout, condition) != nil
    }

    /// Everything it printed, for a failure message.
    var transcript: String { "\(broker) fixture:\n" + lines.joined(separator: "\n") }

    func stop() async throws { try await process.stop() }
}
