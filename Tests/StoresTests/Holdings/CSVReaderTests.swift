import Foundation
import Testing
@testable import Stores

@Suite struct CSVReaderTests {
    private func read(_ text: String) -> (records: [CSVRecord], errors: [LotsFileError]) {
        CSVReader.read(Data(text.utf8), file: "t.csv")
    }

    private func values(_ text: String) -> [[String]] {
        read(text).records.map { $0.fields.map(\.text) }
    }

    private func messages(_ text: String) -> [String] {
        read(text).errors.map(\.description)
    }

    @Test func commasAndLineBreaksSeparateValuesAndRecords() {
        #expect(values("a,b,c\n1,2,3\n") == [["a", "b", "c"], ["1", "2", "3"]])
        #expect(values("a,b\n1,2") == [["a", "b"], ["1", "2"]], "the last line break is optional")
        #expect(values("a,,c,\n") == [["a", "", "c", ""]], "empty values, a trailing comma is an empty last value")
        #expect(read("a,b\n").errors.isEmpty)
    }

    @Test func crlfLfAndALoneCrAllEndARecord() {
        #expect(values("a,b\r\n1,2\r\n") == [["a", "b"], ["1", "2"]])
        #expect(values("a,b\r1,2\r") == [["a", "b"], ["1", "2"]])
        #expect(values("a,b\r\n1,2\n3,4\r5,6") == [["a", "b"], ["1", "2"], ["3", "4"], ["5", "6"]])
        let records = read("a\r\nb\nc\rd").records
        #expect(records.map(\.position.line) == [1, 2, 3, 4])
    }

    @Test func quotedValuesHoldCommasQuotesAndLineBreaks() {
        #expect(values("\"a,b\",c\n") == [["a,b", "c"]])
        #expect(values("\"say \"\"hi\"\"\",x\n") == [["say \"hi\"", "x"]])
        #expect(values("\"\"\"\"\n") == [["\""]], "a value that is one quote")
        #expect(values("\"\",x\n") == [["", "x"]], "an empty quoted value")
        #expect(values("\"two\nlines\",x\n\"crlf\r\ninside\",y\n") == [["two\nlines", "x"], ["crlf\r\ninside", "y"]])
        let records = read("h\n\"two\nlines\",x\nnext,row\n").records
        // The record after a value with a line break starts on the line it is really on.
        #expect(records.map(\.position) == [TextPosition(line: 1, column: 1), TextPosition(line: 2, column: 1), TextPosition(line: 4, column: 1)])
        #expect(records[1].fields[1].position == TextPosition(line: 3, column: 8))
        #expect(records[1].fields.map(\.isQuoted) == [true, false])
    }

    @Test func spacesAreKeptAndPositionsCountScalars() {
        #expect(values(" a , b \n") == [[" a ", " b "]])
        let record = read("é,\tx,z\n").records[0]
        #expect(record.fields.map(\.position.column) == [1, 3, 6])
        #expect(record.end == TextPosition(line: 1, column: 7))
    }

    @Test func emptyAndBlankLinesAreSkipped() {
        #expect(values("\n\na,b\n\n  \n\t\n1,2\n\n") == [["a", "b"], ["1", "2"]])
        #expect(values("a\r\n\r\nb\r\n") == [["a"], ["b"]])
        #expect(values("") == [])
        #expect(values("\"\"\n") == [[""]], "a quoted empty value is a value, not a blank line")
        #expect(read("\n\na\n").records[0].position == TextPosition(line: 3, column: 1))
    }

    @Test func aUTF8ByteOrderMarkIsSkippedAndTakesNoColumn() {
        let records = CSVReader.read(Data([0xEF, 0xBB, 0xBF] + Array("date,x\n".utf8)), file: "t.csv").records
        #expect(records.map { $0.fields.map(\.text) } == [["date", "x"]])
        #expect(records[0].fields[1].position == TextPosition(line: 1, column: 6))
    }

    @Test func anUnclosedQuoteIsReportedAtTheQuoteAndStopsReading() {
        #expect(messages("a,b\n1,\"open\n2,3\n") == [
            "t.csv:2:3: a quoted value is never closed; end the value with a quote, and write a quote inside it as two (\"\")",
        ])
        #expect(values("a,b\n1,\"open\n2,3\n") == [["a", "b"]])
    }

    @Test func aQuoteInsideAnUnquotedValueIsAnError() {
        #expect(messages("a,b\n12\"3,x\n4,5\"\n") == [
            "t.csv:2:3: a quote inside a value that does not start with one, found \"12\"3\"; put the whole value in quotes, and write a quote inside it as two (\"\")",
            "t.csv:3:4: a quote inside a value that does not start with one, found \"5\"\"; put the whole value in quotes, and write a quote inside it as two (\"\")",
        ])
        // Reading goes on: both records are there, so later rows are still checked.
        #expect(values("a,b\n12\"3,x\n4,5\"\n") == [["a", "b"], ["12\"3", "x"], ["4", "5\""]])
    }

    @Test func textAfterAClosingQuoteIsAnError() {
        #expect(messages("\"GOOG\"x,2\n") == [
            "t.csv:1:7: text after the closing quote of a value, found \"x\"; put the whole value in quotes, and write a quote inside it as two (\"\")",
        ])
        #expect(values("\"GOOG\"x,2\n") == [["GOOGx", "2"]])
    }

    @Test func bytesThatAreNotUTF8AreReportedWhereTheyAreAndStopReading() {
        // "café" in Latin-1: é is the single byte 0xE9.
        let latin1 = Array("a,b\ncaf".utf8) + [0xE9] + Array(",1\nx,y\n".utf8)
        let result = CSVReader.read(Data(latin1), file: "t.csv")
        #expect(result.errors.map(\.description) == [
            "t.csv:2:4: the file is not UTF-8 text, found \"byte 0xE9\"; save it as UTF-8 (in a spreadsheet: CSV UTF-8) and import it again",
        ])
        #expect(result.records.map { $0.fields.map(\.text) } == [["a", "b"]])
        for bad: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            let errors = CSVReader.read(Data(Array("x,".utf8) + bad), file: "t.csv").errors
            #expect(errors.map(\.position) == [TextPosition(line: 1, column: 3)], "\(bad)")
        }
        #expect(values("€,𝄞,é\n") == [["€", "𝄞", "é"]], "two-, three- and four-byte forms are read")
    }

    @Test func aUTF16FileIsRefusedByName() {
        let utf16 = Data([0xFF, 0xFE] + Array("d\0a\0".utf8))
        #expect(CSVReader.read(utf16, file: "t.csv").errors.map(\.description) == [
            "t.csv:1:1: the file is UTF-16 text, not UTF-8; save it as UTF-8 (in a spreadsheet: CSV UTF-8) and import it again",
        ])
    }
}
