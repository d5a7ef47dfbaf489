import Foundation
import Testing
@testable import Stores

/// A large replay checks its lines in parts on several threads; whatever the damage and wherever the
/// parts are cut, joining them must decide exactly as one pass over the bytes does.
@Suite struct JournalPartTests {
    static func scan(_ bytes: JournalBytes, parts: Int, firstSequence: Int = 1) -> Result<JournalScan, JournalScan.Corruption> {
        let ranges = JournalPart.ranges(of: bytes, count: parts)
        return JournalScan.join(ranges.map { JournalPart.read(bytes, $0) }, firstSequence: firstSequence)
    }

    @Test func cutsTheBytesAtTheStartsOfLines() {
        let bytes = LedgerFixture.buffer(LedgerFixture.lines(50).joined())
        for count in 1...60 {
            let ranges = JournalPart.ranges(of: bytes, count: count)
            #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == bytes.count)
            #expect(ranges.count <= max(count, 1) && !ranges.contains(where: \.isEmpty))
            for (earlier, later) in zip(ranges, ranges.dropFirst()) {
                #expect(earlier.upperBound == later.lowerBound && bytes.base[later.lowerBound - 1] == UInt8(ascii: "\n"))
            }
        }
        #expect(JournalPart.ranges(of: LedgerFixture.buffer(""), count: 4) == [0..<0])
        // One long line cannot be cut.
        #expect(JournalPart.ranges(of: LedgerFixture.buffer(String(repeating: "x", count: 100)), count: 4) == [0..<100])
    }

    /// Seeded damage of every kind at every place: a bad checksum, garbage, an empty line, a line
    /// removed or repeated, a torn tail, a missing last newline.
    @Test func partsJoinedDecideAsOnePassDoes() {
        var generator = SplitMix64(seed: 15)
        for round in 0..<300 {
            var lines = LedgerFixture.lines(Int.random(in: 0...40, using: &generator))
            if !lines.isEmpty {
                let index = Int.random(in: 0..<lines.count, using: &generator)
                switch round % 7 {
                case 0: lines[index] = LedgerFixture.line(index + 1, LedgerFixture.record(.numbered(index + 1)), crcOverride: 0xBAD)
                case 1: lines[index] = "garbage\n"
                case 2: lines[index] = "\n"
                case 3: lines.remove(at: index)
                case 4: lines.insert(lines[index], at: index)
                case 5: lines[lines.count - 1] = String(lines[lines.count - 1].prefix(Int.random(in: 0..<lines[lines.count - 1].count, using: &generator)))
                default: lines[lines.count - 1].removeLast()
                }
            }
            let bytes = LedgerFixture.buffer(lines.joined())
            let firstSequence = round.isMultiple(of: 5) ? 2 : 1
            let onePass = Self.scan(bytes, parts: 1, firstSequence: firstSequence)
            for parts in 2...9 {
                #expect(Self.scan(bytes, parts: parts, firstSequence: firstSequence) == onePass, "round \(round), \(parts) parts")
            }
        }
    }

    @Test func aLineOutOfOrderAtTheStartOfAPartIsFound() {
        var lines = LedgerFixture.lines(20)
        lines[10] = LedgerFixture.line(12, LedgerFixture.record(.numbered(12)))
        let bytes = LedgerFixture.buffer(lines.joined())
        let expected = JournalScan.Corruption(
            line: 11, reason: "sequence number 12 where 11 was expected (a line was removed, repeated or moved, or written without the ledger's lock)")
        for parts in 1...20 {
            #expect(Self.scan(bytes, parts: parts) == .failure(expected), "\(parts) parts")
        }
    }
}
