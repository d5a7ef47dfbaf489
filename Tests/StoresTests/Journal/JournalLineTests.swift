import Foundation
import Testing
@testable import Stores

@Suite struct JournalLineTests {
    /// The example of docs/ledger-format.md, whose checksum was computed with Python's zlib.crc32.
    static let documentedLine = #"{"seq":1,"crc":"eb2f0dae","rec":{"kind":"order","quantity":"10","side":"buy","symbol":"AAPL"}}"# + "\n"

    @Test func writesTheDocumentedLayout() {
        let record = Array(#"{"kind":"order","quantity":"10","side":"buy","symbol":"AAPL"}"#.utf8)
        #expect(String(decoding: JournalLine.bytes(sequence: 1, record: record), as: UTF8.self) == Self.documentedLine)
        #expect(String(decoding: JournalLine.bytes(sequence: 40_213, record: Array("7".utf8)), as: UTF8.self)
            == LedgerFixture.line(40_213, "7"))
    }

    @Test func readsBackTheSequenceAndTheRecordsBytes() {
        let bytes = LedgerFixture.buffer(Self.documentedLine)
        let parsed = JournalLine.parse(bytes, 0..<(bytes.count - 1))
        let line = try? parsed.get()
        #expect(line?.sequence == 1)
        #expect(line.map { String(decoding: bytes[$0.record], as: UTF8.self) } == #"{"kind":"order","quantity":"10","side":"buy","symbol":"AAPL"}"#)
    }

    static func crc(_ text: String) -> UInt32 { LedgerFixture.crc32(Array(text.utf8)) }

    static let badLines: [(text: String, problem: JournalLineProblem)] = [
        (LedgerFixture.line(3, "{}", crcOverride: 0x1234_abcd), .checksumMismatch(written: 0x1234_abcd, computed: crc("3 {}"))),
        (LedgerFixture.line(4, "{}").replacingOccurrences(of: #""seq":4"#, with: #""seq":5"#),
         .checksumMismatch(written: crc("4 {}"), computed: crc("5 {}"))),
        (LedgerFixture.line(3, "{}").uppercased(), .notALedgerLine),
        (#"{"seq":3,"crc":"ABCDEF01","rec":{}}"# + "\n", .badChecksum),
        (#"{"seq":3,"crc":"abc","rec":{}}"# + "\n", .badChecksum),
        (#"{"seq":0,"crc":"00000000","rec":{}}"# + "\n", .badSequence),
        (#"{"seq":012,"crc":"00000000","rec":{}}"# + "\n", .badSequence),
        (#"{"seq":,"crc":"00000000","rec":{}}"# + "\n", .badSequence),
        (#"{"seq": 3,"crc":"00000000","rec":{}}"# + "\n", .badSequence),
        (#"{"seq":3,"crc":"00000000","rec":}"# + "\n", .notALedgerLine),
        (#"{"seq":3,"crc":"00000000","record":{}}"# + "\n", .notALedgerLine),
        ("\n", .notALedgerLine),
    ]

    @Test(arguments: badLines)
    func namesWhatIsWrongWithABadLine(text: String, problem: JournalLineProblem) {
        let bytes = LedgerFixture.buffer(text)
        #expect(JournalLine.parse(bytes, 0..<(bytes.count - 1)) == .failure(problem))
    }

    @Test func describesAChecksumMismatchWithBothValues() {
        #expect(JournalLineProblem.checksumMismatch(written: 0xab, computed: 0x1234_5678).description
            == "the checksum does not match (the line says 000000ab, its record gives 12345678)")
    }
}
