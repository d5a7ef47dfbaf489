import TerminalKit
import Interactors

/// A box listing every key, drawn over the table. Keep it in step with `KeyMap`.
struct HelpOverlay {
    let palette: Palette

    private static let entries: [(keys: String, meaning: String)] = [
        ("a  +", "add symbols"),
        ("d  Delete", "remove the selected row"),
        ("u", "undo the last remove"),
        ("j  k  ↑  ↓", "move the selection"),
        ("PgUp  PgDn", "page up / down"),
        ("g  G  Home  End", "first / last row"),
        ("s  r", "sort by " + SortOrder.allCases.map(\.label).joined(separator: ", ") + "; r reverses it"),
        ("c", "a row per symbol across brokers, or per broker"),
        ("Enter", "the symbol across every broker, with a chart"),
        ("Tab  Shift-Tab", "next / previous list"),
        ("1 … 9", "show list 1 … 9"),
        ("W", "lists: new, rename, delete, reorder"),
        ("A", "accounts: equity, buying power, cash"),
        ("B  S", "order ticket: buy / sell the selected row's symbol"),
        ("P", "positions, P&L and balances (B S trade, r refresh)"),
        ("O", "orders (c cancels the selected open one)"),
        ("m", "message log: the last messages with their time"),
        ("?", "show or hide this help"),
        ("q  Ctrl-C", "quit"),
        ("Ctrl-Z", "suspend (fg in the shell resumes)"),
        ("Esc", "close what is open, dismiss a message"),
    ]

    /// What the screen shows besides keys.
    private static let marks: [(keys: String, meaning: String)] = [
        ("~  !  *", "stale · ! off the other brokers · * best bid, ask"),
    ]

    private static let promptEntries: [(keys: String, meaning: String)] = [
        ("Enter", "add symbols: AAPL MSFT or AAPL,MSFT"),
        ("Esc", "cancel"),
    ]

    func draw(into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        let keyWidth = Self.entries.map { TerminalText.width($0.keys) }.max() ?? 0
        var lines: [StyledText] = [StyledText()]
        for entry in Self.entries {
            var line = StyledText(entry.keys, style: palette.overlayKey)
            line.append(String(repeating: " ", count: keyWidth + 2 - TerminalText.width(entry.keys)))
            line.append(entry.meaning)
            lines.append(line)
        }
        lines.append(StyledText())
        lines.append(StyledText("On screen", style: palette.overlayTitle))
        for (keys, meaning) in Self.marks {
            var line = StyledText(keys, style: palette.overlayKey)
            line.append(String(repeating: " ", count: max(2, keyWidth + 2 - TerminalText.width(keys))))
            line.append(meaning)
            lines.append(line)
        }
        lines.append(StyledText())
        lines.append(StyledText("In the add prompt", style: palette.overlayTitle))
        for (keys, meaning) in Self.promptEntries {
            var line = StyledText(keys, style: palette.overlayKey)
            line.append(String(repeating: " ", count: keyWidth + 2 - TerminalText.width(keys)))
            line.append(meaning)
            lines.append(line)
        }

        OverlayBox(title: "Keys", closingKey: "?", palette: palette).draw(lines, into: &buffer, rows: area)
    }
}
