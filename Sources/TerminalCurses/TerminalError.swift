#if canImport(Glibc)
import TerminalKit
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
    /// terminfo says this terminal type cannot move the cursor (no `cup`) or is a hardcopy or generic
    /// type such as dumb: curses would draw one line that never changes.
    case cannotAddressCursor(term: String)
    /// A session runs once; make a new one instead.
    case alreadyStarted
    /// A system call needed for the session failed (for example `pipe`, when out of file descriptors).
    case systemCallFailed(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .notATerminal(let term):
            "commonbroker needs a terminal (TERM=\(Self.shown(term))): stdin and stdout must both be a terminal, not a pipe or a file."
        case .unsupportedTerminal(let term):
            "commonbroker needs a terminal (TERM=\(Self.shown(term))): curses cannot use this terminal type; set TERM to one terminfo knows, for example TERM=xterm-256color."
        case .cannotAddressCursor(let term):
            "TERM=\(Self.shown(term)) cannot move the cursor; run it in a full terminal (e.g. TERM=xterm-256color) or use 'commonbroker print'"
        case .alreadyStarted:
            "The terminal session was already started; a session runs once."
        case .systemCallFailed(let call, let code):
            "commonbroker could not set up the terminal: \(call) failed: \(String(cString: strerror(code)))."
        }
    }

    /// TERM comes from outside: printable ASCII stays as it is, anything else (an escape sequence, a line
    /// break, a bidi control) is written as `\u{…}`, so the message cannot steer the terminal.
    static func shown(_ term: String?) -> String {
        guard let term else { return "unset" }
        var shown = ""
        for scalar in term.unicodeScalars {
            if scalar.value > 0x20 && scalar.value < 0x7F && scalar != "\\" {
                shown.unicodeScalars.append(scalar)
            } else {
                shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return shown
    }
}
