import Foundation
import Testing
@testable import Stores

/// A record with its own parser, for the journal's fast path: the parser reads only records in the
/// layout JSONEncoder writes whose id is even, so every read mixes both paths. `readBy` says which
/// one read a record; it is neither written nor compared.
struct ParsedFill: Codable, Sendable, Equatable, JournalRecordParsing {
    var id: Int
    var symbol: String
    var readBy = "Codable"

    enum CodingKeys: String, CodingKey {
        case id, symbol
    }

    init(id: Int, symbol: String) {
        self.id = id
        self.symbol = symbol
    }

    static func == (lhs: ParsedFill, rhs: ParsedFill) -> Bool {
        lhs.id == rhs.id && lhs.symbol == rhs.symbol
    }

    static func parse(_ records: UnsafeBufferPointer<UnsafeRawBufferPointer>, into parsed: UnsafeMutablePointer<ParsedFill>) -> Int {
        for (index, json) in records.enumerated() {
            var reader = FlatRecordReader(json)
            var id: Int?
            var symbol: String?
            while let member = reader.next() {
                if member.isNamed("id"), let number = member.value.double { id = Int(exactly: number) }
                if member.isNamed("symbol") { symbol = member.value.string }
            }
            guard reader.isComplete, let id, id.isMultiple(of: 2), let symbol else { return index }
            var fill = ParsedFill(id: id, symbol: symbol)
            fill.readBy = "parser"
            (parsed + index).initialize(to: fill)
        }
        return records.count
    }
}

@Suite struct JournalRecordParsingTests {
    static func record(_ fill: ParsedFill) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(fill), as: UTF8.self)
    }

    static func write(_ records: [String], to url: URL) throws {
        try LedgerFixture.write(records.enumerated().map { LedgerFixture.line($0.offset + 1, $0.element) }.joined(), to: url)
    }

    @Test func theParserReadsWhatItCanAndCodableTheRest() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let fills = (1...9).map { ParsedFill(id: $0, symbol: ["AAPL", "BRK.B", "^GSPC"][$0 % 3]) }
            var records = fills.map(Self.record)
            // Written another way: with spaces, and an escape. Codable reads both.
            records[3] = #"{ "id" : 4, "symbol" : "BRK.B" }"#
            records[5] = #"{"id":6,"symbol":"\u0041APL"}"#
            try Self.write(records, to: url)

            let replay = try Journal<ParsedFill>(url: url).readNew()
            #expect(replay.records == fills)
            #expect(replay.records.map(\.readBy) == ["Codable", "parser", "Codable", "Codable", "Codable", "Codable", "Codable", "parser", "Codable"])
        }
    }

    @Test func aRecordNeitherReadsIsRefusedWithItsLineAndCodablesReason() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            var records = (1...6).map { Self.record(ParsedFill(id: $0, symbol: "AAPL")) }
            records[3] = #"{"id":4,"symbl":"AAPL"}"#
            try Self.write(records, to: url)
            let before = try LedgerFixture.bytes(url)

            #expect {
                try Journal<ParsedFill>(url: url).readNew()
            } throws: { error in
                guard case JournalError.corrupt(4, let reason, _) = error else { return false }
                return reason == #"its record is not a ParsedFill: the record has no "symbol""#
            }
            #expect(try LedgerFixture.bytes(url) == before)
        }
    }

    /// A file of a few megabytes is read in parts on every core: the records come back in order, the
    /// first bad record in file order is the one named, and a damaged line anywhere still wins over a
    /// record that does not decode (lines are all checked before any record is judged).
    @Test func aLargeLedgerReadInPartsGivesTheSameRecordsAndErrors() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let padding = String(repeating: "x", count: 400)
            let fills = (1...5_000).map { ParsedFill(id: $0, symbol: "S\($0 % 50)\(padding)") }
            var records = fills.map(Self.record)
            try Self.write(records, to: url)
            let replay = try Journal<ParsedFill>(url: url).readNew()
            #expect(replay.records == fills && replay.firstSequence == 1 && replay.tornTail == nil)
            #expect(replay.records.filter { $0.readBy == "parser" }.count == 2_500)

            records[4_000] = #"{"id":"4001","symbol":"late"}"#
            records[3_000] = #"{"id":"3001","symbol":"early"}"#
            try Self.write(records, to: url)
            #expect {
                try Journal<ParsedFill>(url: url).readNew()
            } throws: { error in
                guard case JournalError.corrupt(3_001, let reason, _) = error else { return false }
                return reason.hasPrefix("its record is not a ParsedFill: id: ")
            }

            var lines = records.enumerated().map { LedgerFixture.line($0.offset + 1, $0.element) }
            lines[4_500] = LedgerFixture.line(4_501, records[4_500], crcOverride: 0xBAD)
            try LedgerFixture.write(lines.joined(), to: url)
            #expect {
                try Journal<ParsedFill>(url: url).readNew()
            } throws: { error in
                guard case JournalError.corrupt(4_501, let reason, _) = error else { return false }
                return reason.hasPrefix("the checksum does not match")
            }
        }
    }
}
