import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to completion with posix_spawn and wait4. Foundation's `Process` on Linux did not reap
/// short-lived tmux clients reliably inside the test runner (they stayed zombies and `waitUntilExit` hung).
public enum Subprocess {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Output (stdout and stderr together) goes through a file: a daemon the program starts (the tmux
    /// server) inherits the descriptors, so a pipe might never reach end-of-file. Spawning and waiting
    /// happen on a `DedicatedThread`, never on a cooperative-pool thread.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> (status: Int32, output: String) {
        try await DedicatedThread.run("subprocess \((executable as NSString).lastPathComponent)") {
            try runBlocking(executable, arguments, environment: environment)
        }
    }

    /// `run`, and what the program cost: its own CPU time (user and system, from wait4's rusage, so no
    /// other process or test thread counts) and the wall time from spawn to exit.
    public static func runMeasuringCPU(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws
        -> (status: Int32, output: String, cpu: Duration, wall: Duration) {
        try await DedicatedThread.run("subprocess \((executable as NSString).lastPathComponent)") {
            let started = ContinuousClock.now
            let (status, output, usage) = try runBlockingWithUsage(executable, arguments, environment: environment)
            let wall = ContinuousClock.now - started
            func duration(_ time: timeval) -> Duration { .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec)) }
            return (status, output, duration(usage.ru_utime) + duration(usage.ru_stime), wall)
        }
    }

    /// Starts the program and returns at once; for clean-up in a `deinit` (which cannot await). The test
    /// process waits for it at exit (see `DedicatedThread.detach`).
    public static func runDetached(_ executable: String, _ arguments: [String], then cleanUp: @escaping @Sendable () -> Void = {}) {
        DedicatedThread.detach("subprocess \((executable as NSString).lastPathComponent)") {
            _ = try? runBlocking(executable, arguments, environment: nil)
            cleanUp()
        }
    }

    private static func runBlocking(_ executable: String, _ arguments: [String], environment: [String: String]?) throws -> (status: Int32, output: String) {
        let (status, output, _) = try runBlockingWithUsage(executable, arguments, environment: environment)
        return (status, output)
    }

    private static func runBlockingWithUsage(_ executable: String, _ arguments: [String], environment: [String: String]?) throws -> (status: Int32, output: String, usage: rusage) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("cb-subprocess-\(UUID().uuidString)").path
        defer { unlink(outputPath) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }

        var pid: pid_t = 0
        let spawned = SpawnSignals.withResetAttributes { attributes in
            posix_spawn(&pid, executable, &actions, &attributes, argv, env)
        }
        guard spawned == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { throw Failure(description: "wait4 failed for \(executable): \(String(cString: strerror(errno)))") }
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED / WEXITSTATUS are macros; decode by hand.
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitStatus, output, usage)
    }
}
