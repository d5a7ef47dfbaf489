import Testing
@testable import CommonBrokerApp

/// RFC 4180 quoting, field by field and as a document.
@Suite struct CSVDocumentTests {
    @Test func plainFieldsStayAsTheyAre() {
        #expect(CSVDocument.field("AAPL") == "AAPL")
        #expect(CSVDocument.field("") == "")
        #expect(CSVDocument.field("189.84") == "189.84")
        #expect(CSVDocument.field("Alpha Demo") == "Alpha Demo")
    }

    @Test func commasQuotesAndLineBreaksAreQuoted() {
        #expect(CSVDocument.field("Vanguard, taxable") == #""Vanguard, taxable""#)
        #expect(CSVDocument.field(#"say "hi""#) == #""say ""hi""""#)
        #expect(CSVDocument.field("\"") == "\"\"\"\"")
        #expect(CSVDocument.field("two\nlines") == "\"two\nlines\"")
        #expect(CSVDocument.field("carriage\rreturn") == "\"carriage\rreturn\"")
        #expect(CSVDocument.field("crlf\r\nend") == "\"crlf\r\nend\"")
    }

    @Test func recordsJoinWithCommas() {
        #expect(CSVDocument.record(["a", "b,c", "", "d\"e"]) == #"a,"b,c",,"d""e""#)
    }

    /// A document escapes outside text before quoting: a line break in a name is spelled `\u{a}`, so
    /// each record stays on one line for line-based tools, and an escape sequence cannot reach a terminal.
    @Test func documentsEscapeOutsideTextAndEndLinesWithCRLF() {
        let text = CSVDocument.text(header: ["name", "note"], rows: [["Evil\nName, Inc.", "\u{1B}[2J\"x\""], [nil, "plain"]])
        #expect(text == "name,note\r\n\"Evil\\u{a}Name, Inc.\",\"\\u{1b}[2J\"\"x\"\"\"\r\n,plain\r\n")
    }
}
