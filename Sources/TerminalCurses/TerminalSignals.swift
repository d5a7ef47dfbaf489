import TerminalKit
import CNcursesw
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process-wide signal handling of a session. The handlers are C (shim.h) because they must be
/// async-signal-safe; shim.h explains how their state stays one per process. Only this type calls
/// the `cb_signals_*` functions.
enum TerminalSignals {
    /// Ask the session to end; the loop restores the terminal and reports the signal.
    static let quit: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    /// Relayed to the UI loop through the self-pipe as well.
    static let relayed: [Int32] = quit + [SIGTSTP, SIGCONT, SIGWINCH]
    /// Restore the terminal, then let the previous action (default: terminate, with core) happen.
    /// SIGTRAP is how Swift traps on arm64; SIGQUIT (Ctrl-\) keeps its core dump but not a garbled tty.
    static let crash: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT]

    /// Installs the handlers and returns the read end of the self-pipe they write the signal number to.
    /// Installing before `newterm` keeps ncurses from putting in its own SIGINT/SIGTSTP/SIGWINCH handlers.
    static func install() throws(TerminalError) -> Int32 {
        let readEnd = try SignalPipe.shared.readEnd()
        // Left over from an earlier session in this process (its handlers are gone, nothing new arrives).
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &scratch, scratch.count) > 0 {}
        _ = cb_signals_save_termios(STDIN_FILENO)
        _ = cb_signals_register_atexit()
        for signal in relayed where cb_signals_install(signal, 0) != 0 {
            let code = errno
            uninstall()
            throw .systemCallFailed(call: "sigaction(\(signal))", errno: code)
        }
        for signal in crash {
            _ = cb_signals_install(signal, 1)
        }
        return readEnd
    }

    /// Puts back whatever handled these signals before `install()`.
    static func uninstall() {
        for signal in relayed + crash {
            cb_signals_uninstall(signal)
        }
    }

    /// From now on a crash or `exit` writes `resetSequence` and restores the saved termios.
    static func armEmergencyRestore(resetSequence: [UInt8]) {
        resetSequence.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                cb_signals_set_reset_sequence(characters.baseAddress, characters.count)
            }
        }
        cb_signals_set_terminal_active(1)
    }

    /// The terminal is back to normal (endwin ran): nothing to restore any more.
    static func disarmEmergencyRestore() {
        cb_signals_set_terminal_active(0)
    }

    /// Stops the process as Ctrl-Z would without our handler; returns once it is continued (`fg`).
    static func stopProcess() {
        cb_signals_stop_process()
    }

    /// One pipe for the life of the process: closing it could let a late handler write into a
    /// reused file descriptor.
    private final class SignalPipe: Sendable {
        static let shared = SignalPipe()
        private let ends: Result<Int32, TerminalError>

        private init() {
            var fds: [Int32] = [-1, -1]
            if pipe(&fds) != 0 {
                ends = .failure(.systemCallFailed(call: "pipe", errno: errno))
                return
            }
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            cb_signals_set_pipe(fds[1])
            ends = .success(fds[0])
        }

        func readEnd() throws(TerminalError) -> Int32 {
            try ends.get()
        }
    }
}
