#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One part of a ledger's new bytes with its lines checked (layout, checksum, and sequence numbers
/// counting up by one from its first line's), on a thread of its own: a replay checks tens of
/// megabytes. A part starts at the start of a line and ends after a newline (the last one at the end
/// of the bytes). `JournalScan.join` puts the parts together in file order and decides, exactly as one
/// pass over the whole would, which line is torn or damaged.
struct JournalPart: Sendable {
    /// Intact lines, in order, before `stop` (every line of the part when there is none).
    var lines: [JournalLine] = []
    /// The offset just past the last of those lines.
    var end: Int
    /// The line that ended the reading before the part's end.
    var stop: Stop?

    enum Stop: Sendable, Equatable {
        /// The line at `start` is not a whole, intact ledger line; `isLast` when it is the last line of
        /// the bytes (no newline after it, or only its own).
        case damaged(start: Int, problem: JournalLineProblem, isLast: Bool)
        /// The line is intact but numbered `sequence`, not one more than the line before it.
        case outOfOrder(sequence: Int)
    }

    /// The sequence number on the part's first line, when it has an intact one.
    var firstSequence: Int? { lines.first?.sequence }

    /// Checks the lines in `range` of `bytes`.
    static func read(_ bytes: JournalBytes, _ range: Range<Int>) -> JournalPart {
        var part = JournalPart(end: range.lowerBound)
        // About 200 bytes a line in the paper broker's ledger; a guess, so the array rarely grows.
        part.lines.reserveCapacity(range.count / 160 + 1)
        var cursor = range.lowerBound
        let end = range.upperBound
        while cursor < end {
            guard let newline = memchr(bytes.base + cursor, Int32(UInt8(ascii: "\n")), end - cursor) else {
                part.stop = .damaged(start: cursor, problem: .noNewline, isLast: true)
                return part
            }
            let lineEnd = bytes.base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            switch JournalLine.parse(bytes, cursor..<lineEnd) {
            case .failure(let problem):
                part.stop = .damaged(start: cursor, problem: problem, isLast: lineEnd + 1 == bytes.count)
                return part
            case .success(let line):
                if let first = part.lines.first, line.sequence != first.sequence + part.lines.count {
                    part.stop = .outOfOrder(sequence: line.sequence)
                    return part
                }
                part.lines.append(line)
            }
            cursor = lineEnd + 1
            part.end = cursor
        }
        return part
    }

    /// `bytes` cut into at most `count` ranges of about the same size, each starting at the start of a
    /// line (none empty; one range for empty bytes).
    static func ranges(of bytes: JournalBytes, count: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for index in 1..<max(count, 1) {
            let target = max(bytes.count / count * index, start)
            guard target < bytes.count,
                  let newline = memchr(bytes.base + target, Int32(UInt8(ascii: "\n")), bytes.count - target)
            else { break }
            let next = bytes.base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
            if next > start && next < bytes.count {
                ranges.append(start..<next)
                start = next
            }
        }
        ranges.append(start..<bytes.count)
        return ranges
    }
}
