import Foundation
import Testing
@testable import Stores

/// Writing, reading back, and what a replay does with what a crash or damage left in the file.
@Suite struct JournalReplayTests {
    @Test func appendedRecordsComeBackInOrderWithTheirSequenceNumbers() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("paper/ledger.jsonl")
            let journal = try Journal<TestFill>(url: url)
            #expect(try journal.readNew().records == [], "a new ledger is empty")
            #expect(try journal.append(.numbered(1)).sequences == 1..<2)
            #expect(try journal.append(contentsOf: [.numbered(2), .numbered(3)]).sequences == 2..<4)
            #expect(journal.lastSequence == 3)
            #expect(try journal.readNew().records == [], "an instance does not read back its own appends")

            let replay = try Journal<TestFill>(url: url).readNew()
            #expect(replay.records == [.numbered(1), .numbered(2), .numbered(3)])
            #expect(replay.sequences == 1..<4)
            #expect(replay.tornTail == nil)
            #expect(String(decoding: try LedgerFixture.bytes(url), as: UTF8.self) == LedgerFixture.lines(3).joined(),
                    "the documented layout, with checksums from the bitwise CRC-32")
        }
    }

    @Test func createsTheDirectoryAndAPrivateFile() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("state/commonbroker/ledger.jsonl")
            _ = try Journal<TestFill>(url: url)
            #expect(FileManager.default.fileExists(atPath: url.path))
            #expect(try TemporaryDirectory.permissions(url) == 0o600)
            #expect(try TemporaryDirectory.permissions(dir.path("state/commonbroker")) == 0o700)
        }
    }

    @Test func anEmptyBatchWritesNothing() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let journal = try Journal<TestFill>(url: url)
            try journal.append(.numbered(1))
            #expect(try journal.append(contentsOf: []).sequences == 2..<2)
            #expect(try LedgerFixture.bytes(url) == Array(LedgerFixture.lines(1).joined().utf8))
        }
    }

    // MARK: Torn tail

    enum TornTail: String, CaseIterable, CustomTestStringConvertible {
        case noNewline, truncatedJSON, badChecksum

        /// The bytes a crash during the append of line 4 could leave after three good lines.
        var bytes: String {
            let whole = LedgerFixture.line(4, LedgerFixture.record(.numbered(4)))
            switch self {
            case .noNewline: return String(whole.dropLast())
            case .truncatedJSON: return String(whole.prefix(whole.count / 2))
            case .badChecksum: return LedgerFixture.line(4, LedgerFixture.record(.numbered(4)), crcOverride: 0xDEAD_BEEF)
            }
        }

        var reason: String {
            switch self {
            case .noNewline, .truncatedJSON: "no newline at the end"
            case .badChecksum: "the checksum does not match"
            }
        }

        var testDescription: String { rawValue }
    }

    @Test(arguments: TornTail.allCases)
    func aTornLastLineIsDroppedSavedAsideAndReported(tail: TornTail) throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let good = LedgerFixture.lines(3).joined()
            try LedgerFixture.write(good + tail.bytes, to: url)

            let journal = try Journal<TestFill>(url: url)
            let replay = try journal.readNew()

            #expect(replay.records == (1...3).map { TestFill.numbered($0) })
            let torn = try #require(replay.tornTail)
            #expect(torn.line == 4)
            #expect(torn.byteCount == tail.bytes.utf8.count)
            #expect(torn.reason.hasPrefix(tail.reason))
            #expect(torn.savedTo == url.path + ".torn-4")
            #expect(torn.message.contains("incomplete line 4"))
            #expect(torn.message.contains(url.path + ".torn-4"))
            #expect(try LedgerFixture.bytes(url) == Array(good.utf8), "cut back to the last good line")
            #expect(try LedgerFixture.bytes(URL(fileURLWithPath: torn.savedTo)) == Array(tail.bytes.utf8), "nothing thrown away")
            #expect(try TemporaryDirectory.permissions(URL(fileURLWithPath: torn.savedTo)) == 0o600)

            #expect(try journal.append(.numbered(4)).sequences == 4..<5, "the next record takes the dropped line's place")
            #expect(try Journal<TestFill>(url: url).readNew().records == (1...4).map { TestFill.numbered($0) })
        }
    }

    /// A crash can stop the write of the last line after any byte: every cut replays to exactly the
    /// complete records, with no error, and the ledger goes on from there.
    @Test func aCutAtEveryByteOfTheLastLineReplaysExactlyTheCompleteRecords() throws {
        try TemporaryDirectory.with { dir in
            let lines = LedgerFixture.lines(3)
            let good = Array(lines[0..<2].joined().utf8)
            let last = Array(lines[2].utf8)
            for cut in 0...last.count {
                let url = dir.path("ledger-\(cut).jsonl")
                try Data(good + last[..<cut]).write(to: url)

                let journal = try Journal<TestFill>(url: url)
                let replay = try journal.readNew()

                let complete = cut == last.count ? 3 : 2
                #expect(replay.records == (1...complete).map { TestFill.numbered($0) }, "cut after \(cut) bytes")
                #expect((replay.tornTail != nil) == (cut > 0 && cut < last.count), "cut after \(cut) bytes")
                #expect(try LedgerFixture.bytes(url).count == (complete == 3 ? good.count + last.count : good.count))
                if [0, last.count / 2, last.count - 1, last.count].contains(cut) {
                    #expect(try journal.append(.numbered(complete + 1)).sequences.lowerBound == complete + 1)
                    #expect(try Journal<TestFill>(url: url).readNew().records.count == complete + 1)
                }
            }
        }
    }

    @Test func aSecondTornLineAtTheSamePlaceIsSavedUnderANewName() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let good = LedgerFixture.lines(1).joined()
            try LedgerFixture.write(good + #"{"seq":2,"cr"#, to: url)
            #expect(try Journal<TestFill>(url: url).readNew().tornTail?.savedTo == url.path + ".torn-2")
            try LedgerFixture.write(good + #"{"seq":2,"crc":"#, to: url)
            #expect(try Journal<TestFill>(url: url).readNew().tornTail?.savedTo == url.path + ".torn-2-2")
            #expect(try LedgerFixture.bytes(URL(fileURLWithPath: url.path + ".torn-2")) == Array(#"{"seq":2,"cr"#.utf8))
        }
    }

    // MARK: Damage that is not a crash

    @Test(arguments: [
        (2, LedgerFixture.line(2, LedgerFixture.record(.numbered(2)), crcOverride: 0x0BAD_0BAD), "the checksum does not match"),
        (2, "garbage\n", "not a ledger line"),
        (3, "\n", "not a ledger line"),
        (2, LedgerFixture.line(2, LedgerFixture.record(.numbered(2))).replacingOccurrences(of: "GSPC", with: "GSPD"), "the checksum does not match"),
    ])
    func aBadLineWithLinesAfterItIsRefusedAndTheFileKept(line: Int, text: String, reason: String) throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            var lines = LedgerFixture.lines(4)
            lines[line - 1] = text
            try LedgerFixture.write(lines.joined(), to: url)
            let before = try LedgerFixture.bytes(url)

            let error = try Self.error { _ = try Journal<TestFill>(url: url).readNew() }

            guard case .corrupt(let reportedLine, let reportedReason, let path) = error else {
                Issue.record("expected corrupt, got \(error)")
                return
            }
            #expect(reportedLine == line)
            #expect(reportedReason.hasPrefix(reason))
            #expect(reportedReason.contains("lines follow it"))
            #expect(path == url.path)
            #expect(error.description.contains("damaged at line \(line)"))
            #expect(error.description.contains("Nothing was changed"))
            #expect(try LedgerFixture.bytes(url) == before, "the file is untouched")
            #expect(try TemporaryDirectory.listing(dir.url) == ["ledger.jsonl"], "nothing saved aside")
        }
    }

    @Test(arguments: [
        ([1, 2, 4, 5], 3, "sequence number 4 where 3 was expected"),
        ([1, 2, 2, 3], 3, "sequence number 2 where 3 was expected"),
        ([2, 3], 1, "sequence number 2 where 1 was expected"),
        ([1, 2, 4], 3, "sequence number 4 where 3 was expected"),
    ])
    func aSequenceGapOrRepeatIsRefusedEvenOnTheLastLine(sequences: [Int], line: Int, reason: String) throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            try LedgerFixture.write(sequences.map { LedgerFixture.line($0, LedgerFixture.record(.numbered($0))) }.joined(), to: url)
            let before = try LedgerFixture.bytes(url)

            let error = try Self.error { _ = try Journal<TestFill>(url: url).readNew() }

            guard case .corrupt(line, let reportedReason, _) = error else {
                Issue.record("expected corrupt at line \(line), got \(error)")
                return
            }
            #expect(reportedReason.hasPrefix(reason))
            #expect(try LedgerFixture.bytes(url) == before)
        }
    }

    @Test func aWholeRecordOfAnotherShapeIsRefusedEvenOnTheLastLine() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            try LedgerFixture.write(LedgerFixture.lines(1).joined() + LedgerFixture.line(2, #"{"id":2,"symbol":"AAPL"}"#), to: url)

            let error = try Self.error { _ = try Journal<TestFill>(url: url).readNew() }

            guard case .corrupt(2, let reason, _) = error else {
                Issue.record("expected corrupt at line 2, got \(error)")
                return
            }
            #expect(reason == #"its record is not a TestFill: the record has no "price""#)
        }
    }

    static func error(_ body: () throws -> Void) throws -> JournalError {
        do {
            try body()
        } catch let error as JournalError {
            return error
        }
        Issue.record("no error was thrown")
        throw CancellationError()
    }
}
