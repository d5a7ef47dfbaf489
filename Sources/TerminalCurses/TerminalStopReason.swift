/// Why a `TerminalSession` ended.
public enum TerminalStopReason: Sendable, Hashable {
    /// `stop()` was called.
    case stopped
    /// A quit signal arrived (SIGINT from Ctrl-C, SIGTERM, SIGHUP); the terminal is already restored.
    case signal(Int32)
}
