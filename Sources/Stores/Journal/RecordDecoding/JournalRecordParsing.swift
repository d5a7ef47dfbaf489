/// A record type that reads its own lines, tried before Codable on every line a journal reads.
///
/// Why: even `RecordDecoder`, which reads in place, goes through the generic `Decoder` machinery (a
/// container per record, every key a `String`, a type lookup per member), which costs several times
/// what reading the known members of a known shape does; a replay of a large ledger is mostly that.
/// The journal hands over whole runs of lines, so the loop over them is compiled for the record type
/// (in the journal, which is generic, each record would cost type lookups of its own).
///
/// How it stays safe: a parser stops at anything it is not sure of (a member it does not know, an
/// escape in a string, a number in a form it does not read, a missing member, an invalid value), and
/// the journal decodes that record with Codable as it always did, then hands the parser the lines
/// after it. So a record the parser leaves behind is read, or refused with its line number and
/// Codable's reason, exactly as before; the parser only has to be right where it succeeds, and there it
/// must give exactly what `init(from:)` gives with JSONDecoder's default strategies (test it against
/// JSONDecoder on random records). `FlatRecordReader` reads a flat object.
public protocol JournalRecordParsing: SendableMetatype {
    /// Reads `records` (each the JSON after `"rec":` on its line, as JSONEncoder wrote it) in order into
    /// `parsed`, uninitialized memory for as many, and returns how many it initialized: all of them, or
    /// the index of the first it leaves to Codable. The bytes are valid only during the call.
    static func parse(_ records: UnsafeBufferPointer<UnsafeRawBufferPointer>, into parsed: UnsafeMutablePointer<Self>) -> Int
}
