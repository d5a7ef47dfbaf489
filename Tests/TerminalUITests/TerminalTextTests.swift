import Testing
import TerminalUI
import TerminalKit

@Suite struct TerminalTextTests {
    /// Text from outside is shown as sent, with whatever would steer the terminal spelled out: the
    /// same escaping stderr and `print` use (`VisibleText`).
    @Test(arguments: [
        ("\u{1B}[31mred\u{1B}[0m", "\\u{1b}[31mred\\u{1b}[0m"),
        ("\u{1B}]0;title\u{07}after", "\\u{1b}]0;title\\u{7}after"),
        ("a\u{9B}2Jb", "a\\u{9b}2Jb"),
        ("a\u{9D}osc\u{9C}b", "a\\u{9d}osc\\u{9c}b"),
        ("line1\r\nline2", "line1\\u{d}\\u{a}line2"),
        ("a\tb", "a\\u{9}b"),
        ("abc\u{202E}cba", "abc\\u{202e}cba"),
        ("\u{2066}iso\u{2069}\u{200F}", "\\u{2066}iso\\u{2069}\\u{200f}"),
        ("bell\u{07}del\u{7F}nul\u{0}", "bell\\u{7}del\\u{7f}nul\\u{0}"),
        ("sep\u{2028}arated", "sep\\u{2028}arated"),
        ("Ünïcödé α β γ — ok", "Ünïcödé α β γ — ok"),
        ("already \\u{1b} escaped", "already \\u{1b} escaped"),
    ])
    func sanitizeSpellsOutWhatCouldSteerTheTerminal(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
        #expect(TerminalText.sanitize(expected) == expected, "escaping twice changes nothing")
        #expect(TerminalText.cells(expected).allSatisfy { $0 != TerminalText.placeholder })
    }

    @Test func wrapBreaksAtSpacesAndCutsWordsLongerThanALine() {
        func wrap(_ s: String, _ width: Int) -> [String] {
            TerminalText.wrap(Array(s), toWidth: width).map { String($0) }
        }
        #expect(wrap("moved it to /tmp/state/watchlist.json.corrupt-1", 20) == ["moved it to", "/tmp/state/watchlist", ".json.corrupt-1"])
        #expect(wrap("a b c", 10) == ["a b c"])
        #expect(wrap("  lead  and  trail  ", 6) == ["lead", "and", "trail"])
        #expect(wrap("", 5) == [])
        #expect(wrap("abc", 0) == [])
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
