/// Records read from a ledger that this instance had not seen: on the first read, the whole file; later,
/// what other instances appended meanwhile. Apply them in order.
public struct JournalReplay<Record: Sendable>: Sendable {
    public var records: [Record]
    /// The sequence number of `records.first` (when empty, of the next record to be written).
    public var firstSequence: Int
    /// An incomplete last line that was dropped (and saved aside), if there was one. Show its `message`.
    public var tornTail: JournalTornTail?

    public init(records: [Record], firstSequence: Int, tornTail: JournalTornTail? = nil) {
        self.records = records
        self.firstSequence = firstSequence
        self.tornTail = tornTail
    }

    /// The sequence numbers of `records`.
    public var sequences: Range<Int> { firstSequence..<(firstSequence + records.count) }
}
