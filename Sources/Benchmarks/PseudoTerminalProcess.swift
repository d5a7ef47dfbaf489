#if canImport(Glibc)
import Foundation
import Glibc

/// A child process whose stdin, stdout and stderr are the slave side of a new pseudo-terminal, in its
/// own session with that terminal as its controlling terminal, as when a user runs it in a terminal.
final class PseudoTerminalProcess {
    let pid: pid_t
    let master: Int32
    let startedAt: UInt64
    private(set) var exitDescription: String?

    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    private init(pid: pid_t, master: Int32, startedAt: UInt64) {
        self.pid = pid
        self.master = master
        self.startedAt = startedAt
    }

    static func spawn(
        _ arguments: [String], environment: [String: String], columns: UInt16, rows: UInt16
    ) -> Result<PseudoTerminalProcess, SpawnError> {
        guard let pty = PseudoTerminalCalls.shared else {
            return .failure(SpawnError(description: "posix_openpt and friends not found in libc"))
        }
        let master = pty.openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, pty.grantpt(master) == 0, pty.unlockpt(master) == 0, let name = pty.ptsname(master) else {
            return .failure(SpawnError(description: "no pseudo-terminal: \(String(cString: strerror(errno)))"))
        }
        let slavePath = String(cString: name)
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclose(&actions, master)
        // Opened after setsid (spawn attributes apply first), so it becomes the controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc ≥ 2.26); the Glibc module does not export the GNU constant.
        posix_spawnattr_setflags(&attributes, Int16(0x80))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid: pid_t = 0
        let startedAt = MonotonicTime.now()
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard status == 0 else {
            close(master)
            return .failure(SpawnError(description: "spawn \(arguments[0]): \(String(cString: strerror(status)))"))
        }
        return .success(PseudoTerminalProcess(pid: pid, master: master, startedAt: startedAt))
    }

    /// The next output, waiting until `deadline`; nil at the deadline, at end of output or on error.
    func read(until deadline: UInt64) -> [UInt8]? {
        let now = MonotonicTime.now()
        guard now < deadline else { return nil }
        var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(min(1_000, (deadline - now) / 1_000_000 + 1)))
        guard ready > 0 else { return ready == 0 ? [] : nil }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
        guard count > 0 else {
            reap(blocking: false)
            return nil
        }
        return Array(buffer[..<count])
    }

    func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
    }

    /// Waits up to 2 s for the child to leave after "q" (draining its output so it never blocks),
    /// then terminates it.
    func stop() {
        let deadline = MonotonicTime.now() + 2_000_000_000
        while exitDescription == nil, MonotonicTime.now() < deadline {
            reap(blocking: false)
            if exitDescription == nil, read(until: min(deadline, MonotonicTime.now() + 50_000_000)) == nil {
                reap(blocking: false)
            }
        }
        if exitDescription == nil {
            kill(pid, SIGTERM)
            usleep(200_000)
            reap(blocking: false)
            if exitDescription == nil {
                kill(pid, SIGKILL)
                reap(blocking: true)
            }
        }
        close(master)
    }

    private func reap(blocking: Bool) {
        guard exitDescription == nil else { return }
        var status: Int32 = 0
        let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
        guard result == pid else { return }
        let signal = status & 0x7F
        exitDescription = signal == 0 ? "status \((status >> 8) & 0xFF)" : "signal \(signal)"
    }
}

/// The pty calls of libc, looked up at run time: the Glibc module declares them only under
/// `_XOPEN_SOURCE`, which Swift's import does not define.
private struct PseudoTerminalCalls: Sendable {
    typealias OpenPT = @convention(c) (Int32) -> Int32
    typealias Grant = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    let openpt: OpenPT
    let grantpt: Grant
    let unlockpt: Grant
    let ptsname: Name

    static let shared: PseudoTerminalCalls? = {
        let libc = dlopen(nil, RTLD_NOW)
        guard let openpt = dlsym(libc, "posix_openpt"), let grantpt = dlsym(libc, "grantpt"),
              let unlockpt = dlsym(libc, "unlockpt"), let ptsname = dlsym(libc, "ptsname")
        else { return nil }
        return PseudoTerminalCalls(
            openpt: unsafeBitCast(openpt, to: OpenPT.self), grantpt: unsafeBitCast(grantpt, to: Grant.self),
            unlockpt: unsafeBitCast(unlockpt, to: Grant.self), ptsname: unsafeBitCast(ptsname, to: Name.self))
    }()
}
#endif
