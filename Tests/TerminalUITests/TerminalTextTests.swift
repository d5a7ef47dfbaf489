import Testing
import TerminalUI

@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("\u{1B}[31mred\u{1B}[0m", "red"),
        ("\u{1B}]0;title\u{07}after", "after"),
        ("\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
        ("a\u{9B}2Jb", "ab"),
        ("a\u{9D}osc\u{9C}b", "ab"),
        ("line1\r\nline2", "line1 line2"),
        ("a\tb\nc\rd", "a b c d"),
        ("abc\u{202E}cba", "abccba"),
        ("\u{2066}iso\u{2069}\u{200F}", "iso"),
        ("bell\u{07}del\u{7F}nul\u{0}", "belldelnul"),
        ("\u{1B}(Bcharset", "charset"),
        ("\u{1B}Pdcs data\u{1B}\\ok", "ok"),
        ("unterminated \u{1B}[31", "unterminated "),
        ("Ünïcödé α β γ — ok", "Ünïcödé α β γ — ok"),
    ])
    func sanitizeRemovesWhatCouldSteerTheTerminal(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    @Test func cellsAreOneCellEach() {
        #expect(TerminalText.cells("abc") == ["a", "b", "c"])
        // Decomposed é composes; a zero-width joiner or space takes no cell.
        #expect(TerminalText.cells("e\u{301}x") == ["é", "x"])
        #expect(TerminalText.cells("a\u{200B}b\u{200D}c") == ["a", "b", "c"])
        // Wide characters and emoji become one placeholder cell each, never two cells.
        #expect(TerminalText.cells("株式") == [TerminalText.placeholder, TerminalText.placeholder])
        #expect(TerminalText.cells("👍🏽x") == [TerminalText.placeholder, "x"])
        #expect(TerminalText.cells("❤️") == [TerminalText.placeholder])
        #expect(TerminalText.cells("🇺🇸") == [TerminalText.placeholder])
        #expect(TerminalText.cells("\u{1B}") == [TerminalText.placeholder])
        #expect(TerminalText.cells("αβγ●—") == ["α", "β", "γ", "●", "—"])
    }

    @Test func truncateEndsInAnEllipsis() {
        #expect(TerminalText.truncate("Gamma Flaky", toWidth: 8) == "Gamma F…")
        #expect(TerminalText.truncate("short", toWidth: 8) == "short")
        #expect(TerminalText.truncate("anything", toWidth: 0) == "")
        #expect(TerminalText.width("株式会社") == 4)
    }

    @Test func screenBufferWriteNeverShiftsColumns() {
        var buffer = ScreenBuffer(size: ScreenSize(columns: 8, rows: 1))
        let end = buffer.write("a株\u{301}\u{7}b", column: 0, row: 0)
        #expect(end == 4)
        #expect(buffer.lines == ["a\u{FFFD}\u{FFFD}b    "])
    }
}
