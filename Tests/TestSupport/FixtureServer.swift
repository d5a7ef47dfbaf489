import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Tests/Fixtures/http_fixture_server.py, running on a random loopback port for the life of this value.
///
/// Started with posix_spawn rather than Foundation's `Process`, whose `waitUntilExit` hung on reaping
/// inside the test runner. The server's stdin is a pipe whose write end only this process holds: if the
/// test process dies, the pipe closes and the server exits, so a crashed run leaves nothing behind.
/// stdout is a pipe read once, for the `LISTENING <port>` line; stderr goes to a file, quoted when the
/// server fails to start.
public final class FixtureServer: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// A request as the server saw it (`GET /__log`).
    public struct LoggedRequest: Decodable, Sendable {
        public let method: String
        public let path: String
        public let query: [String: [String]]
        public let headers: [String: String]

        /// Whether the request carried `marker=<marker>`: see `shared()`.
        public func isMarked(_ marker: String) -> Bool {
            query["marker"]?.contains(marker) == true
        }

        public func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    public let port: Int
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    private let pid: pid_t
    private let stdinWriteEnd: Int32
    private let stdoutReadEnd: Int32
    private let stderrPath: String
    private let stopped = Mutex(false)

    /// Tests/Fixtures, found from this file's path.
    public static let fixturesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Starts the server on the routes under `root` (every routes.json found recursively) and waits for
    /// it to listen, at most `startTimeout` seconds.
    public init(root: URL = FixtureServer.fixturesDirectory.appendingPathComponent("selftest"), startTimeout: TimeInterval = 10) throws {
        let script = Self.fixturesDirectory.appendingPathComponent("http_fixture_server.py").path
        let stderrPath = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-server-\(UUID().uuidString).log").path
        self.stderrPath = stderrPath

        let arguments = ["python3", "-u", script, "--root", root.path, "--port", "0"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environment.forEach { free($0) } }

        let (stdinPipe, stdoutPipe, child, spawned) = try Self.spawnLock.withLock { _ in
            let stdinPipe = try Self.closeOnExecPipe()
            let stdoutPipe = try Self.closeOnExecPipe()
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            // dup2 onto 0/1 clears close-on-exec for the child's copies only.
            posix_spawn_file_actions_adddup2(&actions, stdinPipe.read, 0)
            posix_spawn_file_actions_adddup2(&actions, stdoutPipe.write, 1)
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            // The child inherits the spawning thread's signal mask; a test-runner thread may block SIGTERM,
            // which would make the server deaf to `stop()`. Start it with nothing blocked, defaults restored.
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var child: pid_t = 0
            let spawned = posix_spawnp(&child, "python3", &actions, &attributes, argv, environment)
            return (stdinPipe, stdoutPipe, child, spawned)
        }
        close(stdinPipe.read)
        close(stdoutPipe.write)
        guard spawned == 0 else {
            close(stdinPipe.write)
            close(stdoutPipe.read)
            throw Failure(description: "cannot start python3: \(String(cString: strerror(spawned)))")
        }
        pid = child
        stdinWriteEnd = stdinPipe.write
        stdoutReadEnd = stdoutPipe.read

        do {
            let line = try Self.readLine(from: stdoutPipe.read, timeout: startTimeout)
            guard line.hasPrefix("LISTENING "), let port = Int(line.dropFirst("LISTENING ".count)), port > 0 else {
                throw Failure(description: "fixture server said \(line.debugDescription) instead of LISTENING <port>")
            }
            self.port = port
        } catch {
            Self.terminate(child)
            close(stdinPipe.write)
            close(stdoutPipe.read)
            let log = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            unlink(stderrPath)
            throw Failure(description: "\(error); server stderr: \(log.suffix(800))")
        }
    }

    deinit {
        stop()
    }

    /// Starts a server without blocking the caller's thread: spawning and waiting for `LISTENING` block,
    /// and a blocked thread of Swift's small cooperative pool would stall every other test.
    public static func start(root: URL = FixtureServer.fixturesDirectory.appendingPathComponent("selftest")) async throws -> FixtureServer {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try FixtureServer(root: root) })
            }
        }
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
    public func stop(signal: Int32? = SIGTERM) -> Int32? {
        let wasStopped = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return nil }
        close(stdinWriteEnd)
        let status = Self.terminate(pid, signal: signal)
        close(stdoutReadEnd)
        unlink(stderrPath)
        return status
    }

    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// Every request the server received since the start or the last `clearLog()`.
    public func requestLog() async throws -> [LoggedRequest] {
        let (data, _) = try await Self.fetch(URLRequest(url: url("/__log")))
        return try JSONDecoder().decode([LoggedRequest].self, from: data)
    }

    public func clearLog() async throws {
        var request = URLRequest(url: url("/__log/clear"))
        request.httpMethod = "POST"
        _ = try await Self.fetch(request)
    }

    /// Waits until the server has logged a request for `path`, at most `timeout` seconds. For tests that
    /// must act while a request is in flight (cancellation).
    public func waitForRequest(path: String, marker: String? = nil, timeout: TimeInterval = 5) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await requestLog().contains(where: { $0.path == path && (marker == nil || $0.isMarked(marker!)) }) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "no request for \(path) reached the fixture server within \(timeout)s")
    }

    // MARK: - Private

    private static func fetch(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        return try await session.data(for: request)
    }

    /// Held from creating the pipes to spawning: a server spawned by another test in between would
    /// otherwise inherit this one's pipe ends before they are close-on-exec, and keep this server alive.
    /// (Glibc's module does not export pipe2.)
    private static let spawnLock = Mutex(())

    private static func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        return (descriptors[0], descriptors[1])
    }

    private static func readLine(from descriptor: Int32, timeout: TimeInterval) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, remaining)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { throw Failure(description: "fixture server did not listen within \(timeout)s") }
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { throw Failure(description: "fixture server exited before listening") }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// Sends `signal` and reaps; SIGKILL if it has not exited within two seconds. The exit status.
    @discardableResult
    private static func terminate(_ pid: pid_t, signal: Int32? = SIGTERM) -> Int32 {
        if let signal { kill(pid, signal) }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(2)
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped == -1 && errno != EINTR { return -1 }
            if Date() >= deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                break
            }
            usleep(5_000)
        }
        // WIFEXITED / WEXITSTATUS are macros; decoded by hand.
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
