import TextSafety

/// An incomplete last line that was dropped from a ledger: what a crash (or `kill -9`) in the middle
/// of an append leaves. Such a record was never acknowledged (an append returns only after the whole
/// line is written and flushed), so dropping it loses nothing that was promised; its bytes are still
/// saved beside the ledger in `savedTo`.
public struct JournalTornTail: Sendable, Hashable {
    /// The ledger's path.
    public var path: String
    /// The dropped line's number (1-based), which is also the sequence number it would have had.
    public var line: Int
    public var byteCount: Int
    /// Why the line is incomplete, e.g. "no newline at the end".
    public var reason: String
    /// The file holding the dropped bytes.
    public var savedTo: String

    public init(path: String, line: Int, byteCount: Int, reason: String, savedTo: String) {
        self.path = path
        self.line = line
        self.byteCount = byteCount
        self.reason = reason
        self.savedTo = savedTo
    }

    /// For the user, escaped for the terminal.
    public var message: String {
        "the ledger \(VisibleText.escaped(path)) ended in an incomplete line \(line) (\(byteCount) bytes, "
            + "\(VisibleText.escaped(reason))), left by a write that was cut short; it had not been confirmed, "
            + "so it was dropped; its bytes are kept in \(VisibleText.escaped(savedTo))"
    }
}
