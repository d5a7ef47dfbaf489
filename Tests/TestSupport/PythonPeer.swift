import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Locking
import Synchronization

/// A Python script acting as a network peer (a WebSocket server, say) for the life of this value. The
/// script must print `LISTENING <port>` on stdout once it accepts connections; later stdout lines are
/// kept and can be awaited with `line(where:)`.
///
/// Like `FixtureServer`: spawned with posix_spawn (Foundation's `Process` hung on reaping in this test
/// runner); its stdin is a pipe only we hold, so it exits with the test process. The interpreter is
/// $COMMONBROKER_PYTHON (what `make test` sets), else <repo>/.venv/bin/python3, else python3 on PATH.
public final class PythonPeer: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    private struct Output {
        var lines: [String] = []
        var ended = false
        var waiters: [Waiter] = []
    }

    private struct Waiter {
        let id: Int
        let matches: @Sendable (String) -> Bool
        let continuation: CheckedContinuation<String?, Never>
    }

    public let port: Int
    private let pid: pid_t
    private let stdinWriteEnd: Int32
    private let stderrPath: String
    private let stopped = Locked(false)
    private let stdinOpen = Atomic(true)
    /// Shared with the thread that reads stdout, which must not keep `self` (and so the peer) alive.
    private final class OutputBox: Sendable {
        let state = Locked(Output())
    }

    private let output = OutputBox()
    private let nextWaiterID = Atomic(0)

    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var interpreter: String {
        if let configured = ProcessInfo.processInfo.environment["COMMONBROKER_PYTHON"], !configured.isEmpty { return configured }
        let venv = repositoryRoot.appendingPathComponent(".venv/bin/python3").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
    }

    /// Starts `script` with `arguments` and waits (blocking) for its `LISTENING` line. `interpreter`
    /// defaults to the one with the websockets package (see `interpreter`). Blocking: only ever called on
    /// a `DedicatedThread` (see `start`).
    init(script: URL, arguments: [String] = [], interpreter: String = PythonPeer.interpreter, startTimeout: TimeInterval = 10) throws {
        let stderrPath = FileManager.default.temporaryDirectory.appendingPathComponent("python-peer-\(UUID().uuidString).log").path
        self.stderrPath = stderrPath
        let argv = ([interpreter, "-u", script.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environment.forEach { free($0) } }

        let (stdinPipe, stdoutPipe, child, spawned) = try Self.spawnLock.withLock { _ in
            let stdinPipe = try Self.closeOnExecPipe()
            let stdoutPipe = try Self.closeOnExecPipe()
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, stdinPipe.read, 0)
            posix_spawn_file_actions_adddup2(&actions, stdoutPipe.write, 1)
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            var child: pid_t = 0
            let spawned = SpawnSignals.withResetAttributes { attributes in
                posix_spawnp(&child, interpreter, &actions, &attributes, argv, environment)
            }
            return (stdinPipe, stdoutPipe, child, spawned)
        }
        close(stdinPipe.read)
        close(stdoutPipe.write)
        guard spawned == 0 else {
            close(stdinPipe.write)
            close(stdoutPipe.read)
            throw Failure(description: "cannot start \(interpreter): \(String(cString: strerror(spawned)))")
        }
        pid = child
        stdinWriteEnd = stdinPipe.write

        do {
            let line = try Self.readLine(from: stdoutPipe.read, timeout: TestTime.scaled(startTimeout))
            guard line.hasPrefix("LISTENING "), let port = Int(line.dropFirst("LISTENING ".count)), port > 0 else {
                throw Failure(description: "\(script.lastPathComponent) said \(line.debugDescription) instead of LISTENING <port>")
            }
            self.port = port
            // Read only when start-up fails; the peer keeps writing to the unlinked file, and peers shared
            // for the whole test process (never stopped) leave nothing behind in /tmp.
            unlink(stderrPath)
        } catch {
            Self.terminate(child)
            close(stdinPipe.write)
            close(stdoutPipe.read)
            let log = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            unlink(stderrPath)
            throw Failure(description: "\(script.lastPathComponent): \(error) (interpreter \(interpreter); `make test` sets up .venv with the websockets package); stderr: \(log.suffix(800))")
        }
        let readEnd = stdoutPipe.read
        let thread = Thread { [output] in Self.collectLines(from: readEnd, into: output) }
        thread.name = "python peer stdout"
        thread.start()
    }

    /// Starts a peer without blocking a thread of Swift's small cooperative pool (spawning and waiting for
    /// `LISTENING` block, and a blocked pool thread would stall every other test).
    public static func start(script: URL, arguments: [String] = [], interpreter: String = PythonPeer.interpreter) async throws -> PythonPeer {
        try await DedicatedThread.run("python peer start") {
            try PythonPeer(script: script, arguments: arguments, interpreter: interpreter)
        }
    }

    /// A peer nobody stopped: its stdin closes and it is reaped on a thread of its own (reaping may take
    /// up to `exitGrace`; a deinit may run on a cooperative-pool thread).
    deinit {
        guard markStopped() else { return }
        closeStdin()
        let (pid, stderrPath) = (pid, stderrPath)
        DedicatedThread.detach("python peer reaper") {
            Self.terminate(pid)
            unlink(stderrPath)
        }
    }

    /// Closes the peer's stdin (once), which tells it to exit, without waiting for it or reaping it:
    /// `stop` still does that.
    public func closeStdin() {
        if stdinOpen.exchange(false, ordering: .acquiringAndReleasing) { close(stdinWriteEnd) }
    }

    /// The first stdout line after `LISTENING` that satisfies `matches`, including lines already printed;
    /// nil when none came within `timeout` (scaled by `TestTime`; `.zero` asks whether one came already)
    /// or the peer exited, which tests treat as a failure.
    public func line(where matches: @escaping @Sendable (String) -> Bool, timeout: Duration = .seconds(5)) async -> String? {
        let id = nextWaiterID.add(1, ordering: .relaxed).newValue
        return await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            enum Registration { case found(String?), waiting }
            let registration = output.state.withLock { output -> Registration in
                if let line = output.lines.first(where: matches) { return .found(line) }
                if output.ended { return .found(nil) }
                output.waiters.append(Waiter(id: id, matches: matches, continuation: continuation))
                return .waiting
            }
            if case .found(let line) = registration {
                continuation.resume(returning: line)
                return
            }
            let limit = TestTime.scaled(timeout)
            let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [output] in
                let expired = output.state.withLock { output -> Waiter? in
                    guard let index = output.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return output.waiters.remove(at: index)
                }
                expired?.continuation.resume(returning: nil)
            }
        }
    }

    /// Sends `signal`, then closes the peer's stdin (no signal: the closed stdin alone must stop it) and
    /// reaps it. Returns its exit status (128 + n if killed by signal n), or nil if it was already
    /// stopped. Suspends while a thread of its own waits for the exit (up to `exitGrace` before SIGKILL).
    /// The signal goes first so it is what stops the peer: sent after the close, it raced the peer's own
    /// exit and could land while Python was finalizing, with default signal actions back (status 143).
    @discardableResult
    public func stop(signal: Int32? = SIGTERM) async -> Int32? {
        guard markStopped() else { return nil }
        if let signal { kill(pid, signal) }
        closeStdin()
        let (pid, stderrPath) = (pid, stderrPath)
        return await DedicatedThread.run("python peer stop") {
            defer { unlink(stderrPath) }
            return Self.terminate(pid, signal: nil)
        }
    }

    // MARK: - Private

    /// True for the one caller that stops the peer.
    private func markStopped() -> Bool {
        stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
    }

    private static let spawnLock = Locked(())

    private static func collectLines(from descriptor: Int32, into output: OutputBox) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending += chunk[..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                let satisfied = output.state.withLock { output -> [(Waiter, String)] in
                    output.lines.append(line)
                    let matching = output.waiters.filter { $0.matches(line) }
                    output.waiters.removeAll { $0.matches(line) }
                    return matching.map { ($0, line) }
                }
                satisfied.forEach { $0.0.continuation.resume(returning: $0.1) }
            }
        }
        close(descriptor)
        let abandoned = output.state.withLock { output -> [Waiter] in
            output.ended = true
            defer { output.waiters.removeAll() }
            return output.waiters
        }
        for waiter in abandoned { waiter.continuation.resume(returning: nil) }
    }

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
            guard ready > 0 else { throw Failure(description: "peer did not listen within \(timeout)s") }
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { throw Failure(description: "peer exited before listening") }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// How long a peer may take to exit before SIGKILL: an upper bound, generous for a loaded two-core
    /// machine, since the wait holds only a thread of its own.
    public static let exitGrace: TimeInterval = TestTime.scaled(10)

    /// Sends `signal` and reaps; SIGKILL if it has not exited within `exitGrace`. The exit status.
    @discardableResult
    private static func terminate(_ pid: pid_t, signal: Int32? = SIGTERM) -> Int32 {
        if let signal { kill(pid, signal) }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(exitGrace)
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
