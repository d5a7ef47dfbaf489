/// What a ledger's new bytes hold, decided from the bytes alone: how many intact lines, where they end,
/// and either a torn last line to drop or the line that makes the file unusable.
///
/// Only the last line can be torn: an append writes one whole line (or batch) with a single `write`
/// under the lock and flushes it before anyone reads past it, so a crash can only cut the end. A bad
/// line with more lines after it is damage of another kind, and refusing it keeps the file for a person
/// to look at. A line whose checksum holds but whose sequence number is out of order was written whole,
/// by something other than this code or without the lock, and is refused wherever it is.
struct JournalScan: Equatable {
    var lineCount: Int
    /// The offset in the bytes just past the last intact line.
    var end: Int
    var torn: Torn?

    struct Torn: Equatable {
        /// Where the torn line starts (it runs to the end of the bytes).
        var start: Int
        var problem: JournalLineProblem
    }

    struct Corruption: Error, Equatable {
        var line: Int
        var reason: String
    }

    /// Joins `parts`, read in file order from bytes whose first line should carry `firstSequence` (and
    /// is line `firstSequence` of the file): the first bad line in file order decides, as in one pass.
    static func join(_ parts: [JournalPart], firstSequence: Int) -> Result<JournalScan, Corruption> {
        var scan = JournalScan(lineCount: 0, end: 0, torn: nil)
        for part in parts {
            let expected = firstSequence + scan.lineCount
            if let first = part.firstSequence, first != expected {
                return .failure(outOfOrder(line: expected, sequence: first))
            }
            scan.lineCount += part.lines.count
            scan.end = part.end
            let lineNumber = firstSequence + scan.lineCount
            switch part.stop {
            case nil:
                continue
            case .outOfOrder(let sequence):
                return .failure(outOfOrder(line: lineNumber, sequence: sequence))
            case .damaged(let start, let problem, let isLast):
                guard isLast else {
                    return .failure(Corruption(line: lineNumber, reason: "\(problem), and lines follow it, so it is not an interrupted write"))
                }
                scan.torn = Torn(start: start, problem: problem)
                return .success(scan)
            }
        }
        return .success(scan)
    }

    private static func outOfOrder(line: Int, sequence: Int) -> Corruption {
        Corruption(
            line: line,
            reason: "sequence number \(sequence) where \(line) was expected "
                + "(a line was removed, repeated or moved, or written without the ledger's lock)")
    }
}
