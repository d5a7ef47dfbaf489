/// What an append did, returned only once its lines are written and flushed to disk (`fsync`): from
/// then on the records survive a crash, and the caller may tell the user (e.g. "filled").
public struct JournalReceipt<Record: Sendable>: Sendable {
    /// The sequence numbers given to the appended records, in order (empty when nothing was appended).
    public var sequences: Range<Int>
    /// Records other instances appended since this one last read, which come before the new ones.
    /// Apply them first.
    public var appendedByOthers: JournalReplay<Record>

    public init(sequences: Range<Int>, appendedByOthers: JournalReplay<Record>) {
        self.sequences = sequences
        self.appendedByOthers = appendedByOthers
    }
}
