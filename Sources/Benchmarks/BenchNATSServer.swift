import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bus benchmark's own `nats-server` with JetStream, on a loopback port nobody listens on, its store
/// and log in a temporary directory: `nats-server -a 127.0.0.1 -p PORT -js -sd DIR/store -l DIR/server.log`.
///
/// Ready once a TCP connection to its port succeeds (the server opens its client port after JetStream
/// is up). Killed (SIGKILL: its store is thrown away anyway) and reaped by `stop()`; the directory goes
/// with it.
final class BenchNATSServer: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    let directory: URL
    private let pid: pid_t

    var url: String { "nats://127.0.0.1:\(port)" }

    /// Where the server is, on PATH or where Debian puts it (/usr/sbin is not on every PATH); nil when
    /// it is not installed.
    static func executable() -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (path + ["/usr/sbin", "/usr/bin", "/usr/local/bin"])
            .map { $0 + "/nats-server" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts the server at `executable` and waits up to `timeout` for its port to accept a connection.
    static func start(_ executable: String, timeout: Duration = .seconds(10)) throws -> BenchNATSServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cb-bench-bus-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            let port = try freePort()
            let arguments = ["-a", "127.0.0.1", "-p", String(port), "-js",
                             "-sd", directory.appendingPathComponent("store").path,
                             "-l", directory.appendingPathComponent("server.log").path]
            let pid = try spawn(executable, arguments)
            let server = BenchNATSServer(port: port, directory: directory, pid: pid)
            do {
                try server.awaitConnection(within: timeout)
            } catch {
                server.stop()
                throw error
            }
            return server
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private init(port: Int, directory: URL, pid: pid_t) {
        self.port = port
        self.directory = directory
        self.pid = pid
    }

    func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        try? FileManager.default.removeItem(at: directory)
    }

    /// The server's CPU time so far, user and system (/proc/PID/stat, in clock ticks), so a figure can
    /// say what a quote costs the server apart from this process; nil where there is no /proc.
    func cpuNanoseconds() -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: afterName)...].split(separator: " ")
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        let ticksPerSecond = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
        return (user + system) * 1_000_000_000 / ticksPerSecond
    }

    /// The end of the server's log, for a message saying why it did not start.
    private func logTail() -> String {
        let log = (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
        return log.isEmpty ? "(no log)" : String(log.suffix(1_500))
    }

    private func awaitConnection(within timeout: Duration) throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            if Self.accepts(port) { return }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw Failure(description: "nats-server exited before it accepted a connection: \(logTail())")
            }
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "nats-server did not accept a connection on port \(port) within \(timeout): \(logTail())")
            }
            MonotonicTime.sleep(until: MonotonicTime.now() + 10_000_000)
        }
    }

    private static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return address
    }

    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// A port the kernel picks (bind to port 0), released for the server. Another process could take it
    /// first; the server then fails to start and its log says so.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = loopback(0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The server with standard input and output on /dev/null (it logs to its file), and no signal
    /// blocked (a child inherits the spawning thread's mask).
    private static func spawn(_ executable: String, _ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
        return child
    }
}
