import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Locking


/// A real `nats-server` for one test, on a port it picks itself:
/// `nats-server -a 127.0.0.1 -p -1 --ports_file_dir DIR [-js -sd DIR/store] …`. The chosen port is read
/// from the ports file the server writes (`nats-server_<pid>.ports`, `{"nats":["nats://127.0.0.1:PORT"]}`),
/// which it writes only after logging "Server is ready" (seen in 12 of 30 starts), so the file itself is
/// the signal: its creation is awaited with inotify, bounded by `startTimeout`, and the server's exit
/// (its stderr pipe closing) fails the start at once with its log.
///
/// `make test` installs nats-server (Debian 12: 2.9.x). Killed and reaped by `kill()`, or at deinit.
public final class NATSServerProcess: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let port: Int
    public let clusterPort: Int?
    public let directory: URL
    private let jetStream: Bool
    private let extraArguments: [String]
    private let pid: Locked<pid_t?>

    public var url: String { "nats://127.0.0.1:\(port)" }
    public var clusterURL: String? { clusterPort.map { "nats://127.0.0.1:\($0)" } }
    public var logFile: URL { directory.appendingPathComponent("server.log") }

    public static let startTimeout: Int32 = 20_000

    /// `arguments` go after the standard ones (credentials, TLS, cluster options). `port` nil picks one.
    public static func start(in directory: URL, jetStream: Bool = true, port: Int? = nil, arguments: [String] = []) async throws -> NATSServerProcess {
        try await DedicatedThread.run("nats-server") { () throws -> NATSServerProcess in
            try NATSServerProcess(directory: directory, jetStream: jetStream, port: port, arguments: arguments)
        }
    }

    /// The same server again (port, store, options), after `kill()`: JetStream state survives.
    public func restart() async throws -> NATSServerProcess {
        let (directory, jetStream, port, arguments) = (directory, jetStream, port, extraArguments)
        return try await DedicatedThread.run("nats-server restart") { () throws -> NATSServerProcess in
            try NATSServerProcess(directory: directory, jetStream: jetStream, port: port, arguments: arguments)
        }
    }

    /// SIGKILL, as a crash would, then reaps it.
    public func kill() async {
        guard let pid = pid.withLock({ pid in defer { pid = nil }; return pid }) else { return }
        await DedicatedThread.run("reap nats-server") {
            Self.killAndReap(pid)
        }
    }

    /// Stops the server where it is (SIGSTOP): its sockets stay open and unread, as a stalled or
    /// overloaded server's would. `resume()` lets it go on.
    public func pause() {
        if let pid = pid.withLock({ $0 }) { Glibc.kill(pid, SIGSTOP) }
    }

    public func resume() {
        if let pid = pid.withLock({ $0 }) { Glibc.kill(pid, SIGCONT) }
    }

    /// What the server logged, for a failing test's message.
    public func log() -> String {
        (try? String(contentsOf: logFile, encoding: .utf8)).map { String($0.suffix(3000)) } ?? "(no log)"
    }

    deinit {
        if let pid = pid.withLock({ $0 }) {
            DedicatedThread.detach("reap nats-server") { Self.killAndReap(pid) }
        }
    }

    private init(directory: URL, jetStream: Bool, port: Int?, arguments: [String]) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.jetStream = jetStream
        extraArguments = arguments
        var all = ["-a", "127.0.0.1", "-p", port.map(String.init) ?? "-1", "--ports_file_dir", directory.path, "-l", directory.appendingPathComponent("server.log").path]
        if jetStream { all += ["-js", "-sd", directory.appendingPathComponent("store").path] }
        all += arguments

        let watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard watch >= 0 else { throw Failure(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        defer { close(watch) }
        guard inotify_add_watch(watch, directory.path, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)) >= 0 else {
            throw Failure(description: "inotify_add_watch \(directory.path): \(String(cString: strerror(errno)))")
        }

        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (stderrRead, stderrWrite) = (pipeEnds[0], pipeEnds[1])
        defer { close(stderrRead) }

        let executable = try Self.executable()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderrWrite, 2)
        let commandLine = [executable] + all
        let argv = commandLine.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        // The child starts with no signal blocked and default handlers (SpawnSignals says why).
        var child: pid_t = 0
        let spawned = SpawnSignals.withResetAttributes { attributes in
            posix_spawn(&child, executable, &actions, &attributes, argv, env)
        }
        close(stderrWrite)
        guard spawned == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
        pid = Locked(child)

        let portsFile = directory.appendingPathComponent("nats-server_\(child).ports")
        do {
            let ports = try Self.awaitPortsFile(portsFile, watch: watch, stderr: stderrRead)
            self.port = ports.client
            self.clusterPort = ports.cluster
        } catch {
            Self.killAndReap(child)
            pid.withLock { $0 = nil }
            let log = (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
            throw Failure(description: "\(error)\n\(commandLine.joined(separator: " "))\n\(log.suffix(2000))")
        }
    }

    /// Waits for the ports file to be written (inotify), or for the server to exit (its stderr closes).
    private static func awaitPortsFile(_ file: URL, watch: Int32, stderr: Int32) throws -> (client: Int, cluster: Int?) {
        let limit = TestTime.scaled(Duration.milliseconds(Int(startTimeout)))
        let deadline = ContinuousClock.now + limit
        var errorOutput: [UInt8] = []
        while true {
            if let data = try? Data(contentsOf: file), !data.isEmpty,
               let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
               let client = (object["nats"] as? [String])?.first.flatMap(port(of:)) {
                return (client, (object["cluster"] as? [String])?.first.flatMap(port(of:)))
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw Failure(description: "nats-server wrote no ports file within \(limit)") }
            var descriptors = [pollfd(fd: watch, events: Int16(POLLIN), revents: 0), pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)]
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&descriptors, 2, milliseconds) >= 0 || errno == EINTR else {
                throw Failure(description: "poll: \(String(cString: strerror(errno)))")
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            if descriptors[0].revents != 0 { _ = read(watch, &buffer, buffer.count) }
            if descriptors[1].revents != 0 {
                let count = read(stderr, &buffer, buffer.count)
                if count > 0 {
                    errorOutput += buffer[0..<count]
                } else if count == 0 {
                    throw Failure(description: "nats-server exited before it was ready: \(String(decoding: errorOutput, as: UTF8.self))")
                }
            }
        }
    }

    private static func port(of url: String) -> Int? {
        url.split(separator: ":").last.flatMap { Int($0) }
    }

    private static func killAndReap(_ pid: pid_t) {
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    }

    /// On PATH, or where Debian puts it (/usr/sbin is not on every PATH).
    private static func executable() throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/bin", "/usr/local/bin"]
        for directory in directories where FileManager.default.isExecutableFile(atPath: directory + "/nats-server") {
            return directory + "/nats-server"
        }
        throw Failure(description: "nats-server is not installed (apt-get install nats-server; `make test` does it)")
    }
}
