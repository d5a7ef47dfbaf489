import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Tests/Fixtures/http_fixture_server.py, running on a random loopback port for the life of this value.
/// A `PythonPeer` underneath: spawned with posix_spawn, stdin a pipe only this process holds (a crashed
/// test run leaves no server behind), stderr quoted when the server fails to start.
public final class FixtureServer: Sendable {
    public typealias Failure = PythonPeer.Failure

    /// A request as the server saw it (`GET /__log`).
    public struct LoggedRequest: Decodable, Sendable {
        public let method: String
        public let path: String
        public let query: [String: [String]]
        public let headers: [String: String]
        /// The request body as UTF-8 text (empty without one), to check what a form or JSON order sent.
        public let body: String?

        /// Whether the request carried `marker=<marker>`: see `shared()`.
        public func isMarked(_ marker: String) -> Bool {
            query["marker"]?.contains(marker) == true
        }

        public func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    private let peer: PythonPeer
    public var port: Int { peer.port }
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Tests/Fixtures, found from this file's path.
    public static let fixturesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Starts the server on the routes under `root` (every routes.json found recursively) and waits for
    /// it to listen, at most `startTimeout` seconds. The standard library's http.server needs no venv.
    /// Blocking: only ever called on a `DedicatedThread` (see `start`).
    private init(root: URL = FixtureServer.fixturesDirectory.appendingPathComponent("selftest"), startTimeout: TimeInterval = 10) throws {
        peer = try PythonPeer(
            script: Self.fixturesDirectory.appendingPathComponent("http_fixture_server.py"),
            arguments: ["--root", root.path, "--port", "0"],
            interpreter: "python3",
            startTimeout: startTimeout
        )
    }

    /// Starts a server without blocking the caller's thread: spawning and waiting for `LISTENING` block,
    /// and a blocked thread of Swift's small cooperative pool would stall every other test.
    public static func start(root: URL = FixtureServer.fixturesDirectory.appendingPathComponent("selftest")) async throws -> FixtureServer {
        try await DedicatedThread.run("fixture server start") { try FixtureServer(root: root) }
    }

    /// One selftest server for the whole test process, started on first use and never stopped: it exits
    /// when the test process does (its stdin closes). Tests that share it tell their requests apart in
    /// the log with a query item of their own (routes allow extra query items).
    public static func shared() async throws -> FixtureServer {
        try await sharedServer.value
    }

    private static let sharedServer = Task { try await FixtureServer.start() }

    /// Closes the server's stdin, sends `signal` (none: the closed stdin alone must stop it) and reaps it.
    /// Returns its exit status (128 + n if killed by signal n), or nil if it was already stopped.
    @discardableResult
    public func stop(signal: Int32? = SIGTERM) async -> Int32? {
        await peer.stop(signal: signal)
    }

    /// Closes the server's stdin alone and waits (at most 5 s) until it says `STOPPING`: from then on a
    /// stop signal must not change its clean exit. For the test of that race; `stop` still reaps it.
    public func closeStdinAndWaitUntilStopping() async -> Bool {
        peer.closeStdin()
        return await peer.line(where: { $0 == "STOPPING" }) != nil
    }

    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// Every request the server received since the start or the last `clearLog()`.
    public func requestLog() async throws -> [LoggedRequest] {
        let body = try await fetch("GET", "/__log")
        return try JSONDecoder().decode([LoggedRequest].self, from: body)
    }

    public func clearLog() async throws {
        _ = try await fetch("POST", "/__log/clear")
    }

    /// Waits until the server has logged a request for `path`, at most `timeout` seconds (scaled by
    /// `TestTime`). For tests that must act while a request is in flight (cancellation).
    public func waitForRequest(path: String, marker: String? = nil, timeout: TimeInterval = 5) async throws {
        let timeout = TestTime.scaled(timeout)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await requestLog().contains(where: { $0.path == path && (marker == nil || $0.isMarked(marker!)) }) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "no request for \(path) reached the fixture server within \(timeout)s")
    }

    // MARK: - Private

    /// The body of the server's 2xx answer to one of its own endpoints.
    private func fetch(_ method: String, _ path: String) async throws(Failure) -> Data {
        let port = port
        let response = try await DedicatedThread.run("fixture server \(path)") { () throws(Failure) in
            try LoopbackHTTP.exchange(method: method, port: port, path: path)
        }
        guard (200..<300).contains(response.status) else {
            throw Failure(description: "\(method) \(path) on the fixture server answered \(response.status)")
        }
        return response.body
    }
}
