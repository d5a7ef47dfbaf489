#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a `TerminalSession` could not take over the terminal.
public enum TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// stdin or stdout is a pipe or a file: drawing there would garble it.
    case notATerminal(term: String?)
    /// curses could not set up this terminal, usually because TERM is unset or unknown to terminfo.
    case unsupportedTerminal(term: String?)
    /// A session runs once; make a new one instead.
    case alreadyStarted
    /// A system call needed for the session failed (for example `pipe`, when out of file descriptors).
    case systemCallFailed(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .notATerminal(let term):
            "commonbroker needs a terminal (TERM=\(term ?? "unset")): stdin and stdout must both be a terminal, not a pipe or a file."
        case .unsupportedTerminal(let term):
            "commonbroker needs a terminal (TERM=\(term ?? "unset")): curses cannot use this terminal type; set TERM to one terminfo knows, for example TERM=xterm-256color."
        case .alreadyStarted:
            "The terminal session was already started; a session runs once."
        case .systemCallFailed(let call, let code):
            "commonbroker could not set up the terminal: \(call) failed: \(String(cString: strerror(code)))."
        }
    }
}
