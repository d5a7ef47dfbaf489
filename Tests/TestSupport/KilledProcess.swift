import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program and kills it with SIGKILL, as a crash or `kill -9` would, for tests of what survives
/// one. The kill comes `delay` after the spawn, or `delay` after the program's first line on stdout (so
/// it surely lands while the program is at work, however slow the machine). Its stdout is returned,
/// its stderr goes to a file.
public enum KilledProcess {
    public enum Moment: Sendable {
        /// `delay` after the spawn; a program that ends sooner is simply reaped.
        case afterStart(Duration)
        /// `delay` after the first line on stdout; a program that ends before printing one is reaped.
        case afterFirstLine(Duration)
        /// Not killed: the program runs to its end.
        case never
    }

    public struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended it (137 for SIGKILL).
        public let status: Int32
        /// Everything it wrote on stdout, the last line possibly cut by the kill.
        public let output: String
        public var wasKilled: Bool { status == 128 + SIGKILL }
    }

    /// How long a program may stay silent before it is killed as stuck; the test then fails on what
    /// it finds (no output), never waits forever. A working program prints within milliseconds.
    public static let silenceLimit = Int32(30_000 * TestTime.scale)

    /// Spawning, reading, sleeping and reaping happen on a `DedicatedThread`, never on a cooperative-pool thread.
    public static func run(_ executable: String, _ arguments: [String], kill moment: Moment, stderr: URL) async throws -> Outcome {
        try await DedicatedThread.run("killed \((executable as NSString).lastPathComponent)") {
            try runBlocking(executable, arguments, kill: moment, stderr: stderr)
        }
    }

    private static func runBlocking(_ executable: String, _ arguments: [String], kill moment: Moment, stderr: URL) throws -> Outcome {
        // Close-on-exec, so a child another test spawns meanwhile does not inherit the write end and keep
        // the pipe open after this program is gone (the child's stdout is a dup2, without the flag). Swift's
        // Glibc has no pipe2, so the flag comes a moment after the pipe, as in PythonPeer.
        var pipeEnds: [Int32] = [0, 0]
        let made = pipe(&pipeEnds)
        if made == 0 { for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } }
        guard made == 0 else {
            throw Subprocess.Failure(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderr.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }

        var pid: pid_t = 0
        let spawned = SpawnSignals.withResetAttributes { attributes in
            posix_spawn(&pid, executable, &actions, &attributes, argv, env)
        }
        close(writeEnd)
        guard spawned == 0 else {
            throw Subprocess.Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }

        var output: [UInt8] = []
        var killed = false
        func killNow(after delay: Duration) {
            pause(delay)
            // Harmless if it has exited already: it stays a zombie until reaped below, so the pid is not reused.
            kill(pid, SIGKILL)
            killed = true
        }
        if case .afterStart(let delay) = moment { killNow(after: delay) }
        // Read to the end: the kill closes the pipe's write end.
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var watch = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watch, 1, silenceLimit)
            if ready == -1 && errno == EINTR { continue }
            if ready == 0 {
                kill(pid, SIGKILL)
                killed = true
            }
            let count = read(readEnd, &buffer, buffer.count)
            if count == -1 && errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[0..<count]
            if !killed, case .afterFirstLine(let delay) = moment, output.contains(UInt8(ascii: "\n")) {
                killNow(after: delay)
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw Subprocess.Failure(description: "waitpid failed for \(executable): \(String(cString: strerror(errno)))")
            }
        }
        // WIFEXITED / WEXITSTATUS are macros; decode by hand.
        return Outcome(status: (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
                       output: String(decoding: output, as: UTF8.self))
    }

    private static func pause(_ delay: Duration) {
        let (seconds, attoseconds) = delay.components
        var remaining = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&remaining, &left) == -1 && errno == EINTR { remaining = left }
    }
}
