import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program with its stdout and stderr in files and kills it with SIGKILL after a delay, as a
/// crash or `kill -9` would: for tests of what survives one. The delay is measured from the spawn; a
/// program that ends sooner is simply reaped.
public enum KilledProcess {
    public struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended it (137 for SIGKILL).
        public let status: Int32
        public var wasKilled: Bool { status == 128 + SIGKILL }
    }

    /// Spawning, sleeping and reaping happen on a `DedicatedThread`, never on a cooperative-pool thread.
    public static func run(
        _ executable: String, _ arguments: [String], killAfter delay: Duration?, stdout: URL, stderr: URL
    ) async throws -> Outcome {
        try await DedicatedThread.run("killed \((executable as NSString).lastPathComponent)") {
            try runBlocking(executable, arguments, killAfter: delay, stdout: stdout, stderr: stderr)
        }
    }

    private static func runBlocking(
        _ executable: String, _ arguments: [String], killAfter delay: Duration?, stdout: URL, stderr: URL
    ) throws -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }

        var pid: pid_t = 0
        let spawned = SpawnSignals.withResetAttributes { attributes in
            posix_spawn(&pid, executable, &actions, &attributes, argv, env)
        }
        guard spawned == 0 else {
            throw Subprocess.Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        if let delay {
            let (seconds, attoseconds) = delay.components
            var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            var left = timespec()
            while nanosleep(&pause, &left) == -1 && errno == EINTR { pause = left }
            // Harmless if it has exited already: it stays a zombie until reaped below, so the pid is not reused.
            kill(pid, SIGKILL)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw Subprocess.Failure(description: "waitpid failed for \(executable): \(String(cString: strerror(errno)))")
            }
        }
        // WIFEXITED / WEXITSTATUS are macros; decode by hand.
        return Outcome(status: (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
    }
}
