import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Locking

/// A long-running program whose stdout and stderr go to files, for tests that count what it has printed
/// so far ("exactly one CONNECTED"), signal it, and await its exit status: a fixture server that several
/// clients share, or a daemon such as `commonbroker relay`.
///
/// `PythonPeer` hands out the first matching line only; a file keeps every line for counting, and a
/// daemon that forks keeps no pipe open forever. Spawned with posix_spawn (see `Subprocess`), stdin on
/// /dev/null, killed and reaped at deinit if nobody stopped it.
public final class LoggedProcess: Sendable {
    public let pid: pid_t
    public let standardOutput: URL
    public let standardError: URL
    private let exitStatus = Locked<Int32?>(nil)

    /// Starts `executable` (a path, or a name looked up on PATH) with `arguments` and `environment` added to this process's own.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], logs directory: URL, name: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        standardOutput = directory.appendingPathComponent("\(name).stdout")
        standardError = directory.appendingPathComponent("\(name).stderr")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, standardError.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let env = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = SpawnSignals.withResetAttributes { attributes in
            posix_spawnp(&child, executable, &actions, &attributes, argv, env)
        }
        guard spawned == 0 else { throw Subprocess.Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
        pid = child
    }

    deinit {
        guard exitStatus.withLock({ $0 }) == nil else { return }
        let pid = pid
        DedicatedThread.detach("reap logged process") {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        }
    }

    /// Every complete line written to stdout so far.
    public func outputLines() -> [String] { Self.lines(of: standardOutput) }

    /// Every complete line written to stderr so far.
    public func errorLines() -> [String] { Self.lines(of: standardError) }

    /// Polls stdout until `condition` holds for its lines (bounded by `timeout`, scaled by `TestTime`);
    /// the lines it held on, or nil.
    public func waitForOutput(timeout: Duration = .seconds(15), _ condition: ([String]) -> Bool) async throws -> [String]? {
        let deadline = ContinuousClock.now + TestTime.scaled(timeout)
        repeat {
            let lines = outputLines()
            if condition(lines) { return lines }
            if exited() != nil { return condition(outputLines()) ? outputLines() : nil }
            try await Task.sleep(for: .milliseconds(50))
        } while ContinuousClock.now < deadline
        return nil
    }

    public func signal(_ number: Int32) {
        guard exitStatus.withLock({ $0 }) == nil else { return }
        kill(pid, number)
    }

    /// The exit status (128 + n if signal n ended it) once it has exited, reaping it; nil while it runs.
    public func exited() -> Int32? {
        exitStatus.withLock { known in
            if let known { return known }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            // WIFEXITED / WEXITSTATUS are macros; decoded by hand.
            known = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            return known
        }
    }

    /// Waits up to `timeout` (scaled by `TestTime`) for the exit; its status, or nil if it still runs.
    public func waitForExit(timeout: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + TestTime.scaled(timeout)
        while true {
            if let status = exited() { return status }
            guard ContinuousClock.now < deadline else { return nil }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// SIGTERM, then SIGKILL if it has not exited within `grace` (scaled by `TestTime`, in `waitForExit`); its exit status.
    @discardableResult
    public func stop(grace: Duration = .seconds(5)) async throws -> Int32? {
        signal(SIGTERM)
        if let status = try await waitForExit(timeout: grace) { return status }
        signal(SIGKILL)
        return try await waitForExit(timeout: .seconds(5))
    }

    private static func lines(of file: URL) -> [String] {
        guard let data = FileManager.default.contents(atPath: file.path) else { return [] }
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The last piece has no line feed yet (or is the empty one after the final line feed).
        lines.removeLast()
        return lines
    }
}
