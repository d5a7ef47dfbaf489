import Foundation

/// What a ledger's new bytes hold, decided from the bytes alone: the intact lines, where they end, and
/// either a torn last line to drop or the line that makes the file unusable.
///
/// Only the last line can be torn: an append writes one whole line (or batch) with a single `write`
/// under the lock and flushes it before anyone reads past it, so a crash can only cut the end. A bad
/// line with more lines after it is damage of another kind, and refusing it keeps the file for a person
/// to look at. A line whose checksum holds but whose sequence number is out of order was written whole,
/// by something other than this code or without the lock, and is refused wherever it is.
struct JournalScan {
    var lines: [JournalLine]
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

    /// Scans `bytes`, whose first line should carry `firstSequence` (and is line `firstSequence` of the file).
    static func scan(_ bytes: JournalBytes, firstSequence: Int) -> Result<JournalScan, Corruption> {
        var scan = JournalScan(lines: [], end: 0, torn: nil)
        let count = bytes.count
        var cursor = 0
        while cursor < count {
            let lineNumber = firstSequence + scan.lines.count
            guard let newline = memchr(bytes.base + cursor, Int32(UInt8(ascii: "\n")), count - cursor) else {
                scan.torn = Torn(start: cursor, problem: .noNewline)
                return .success(scan)
            }
            let lineEnd = bytes.base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            let isLast = lineEnd + 1 == count
            switch JournalLine.parse(bytes, cursor..<lineEnd) {
            case .failure(let problem):
                if isLast {
                    scan.torn = Torn(start: cursor, problem: problem)
                    return .success(scan)
                }
                return .failure(Corruption(line: lineNumber, reason: "\(problem), and lines follow it, so it is not an interrupted write"))
            case .success(let line):
                guard line.sequence == lineNumber else {
                    return .failure(Corruption(
                        line: lineNumber,
                        reason: "sequence number \(line.sequence) where \(lineNumber) was expected "
                            + "(a line was removed, repeated or moved, or written without the ledger's lock)"))
                }
                scan.lines.append(line)
            }
            cursor = lineEnd + 1
            scan.end = cursor
        }
        return .success(scan)
    }
}
