/// A ledger line that contradicts the lines before it, though intact (its checksum and sequence number
/// are right): a line placing an order twice, filling an order that is already closed, a second opening.
/// Such a file was edited by hand or written by something else; the broker refuses it like a damaged
/// one rather than guess.
public struct PaperLedgerInconsistency: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line's number in the ledger (1-based; also its sequence number).
    public var line: Int
    /// What is wrong with it, e.g. "its order P-12 is already filled".
    public var reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line) does not follow from the lines before it: \(reason)" }
}
