import TerminalKit
import Interactors

/// A box listing every key, drawn over the table: the keys bound now (`KeyBindings`, which the config
/// can change), then the fixed ones.
struct HelpOverlay {
    let keys: KeyBindings
    let palette: Palette

    /// Each line: the actions whose keys it lists (by `KeyBindings` name), keys no config changes, and
    /// what they do. A line whose actions have no keys left is not shown.
    private static let table: [(actions: [String], fixed: [String], meaning: String)] = [
        (["add"], [], "add symbols"),
        (["remove", "undo"], [], "remove the selected row / undo the last remove"),
        (["moveDown", "moveUp"], [], "move the selection"),
        (["pageUp", "pageDown", "top", "bottom"], [], "page up / down, first / last row"),
        (["sort", "reverseSort"], [], "sort by " + SortOrder.allCases.map(\.label).joined(separator: ", ") + " / reverse"),
        (["crossBroker"], [], "a row per symbol across brokers, or per broker"),
        (["filter", "theme"], [], "filter rows (Esc clears) / next theme"),
        (["detail"], [], "the symbol across every broker, with a chart"),
        (["nextList", "previousList"], [], "next / previous list"),
        ((1...9).map { "list\($0)" }, [], "show list 1 … 9"),
        (["lists"], [], "lists: new, rename, delete, reorder"),
        (["accounts"], [], "accounts: equity, buying power, cash"),
        (["buy", "sell"], [], "order ticket: buy / sell the selected row's symbol"),
        (["positions"], [], "positions, P&L and balances (B S trade, r refresh)"),
        (["orders"], [], "orders (c cancels the selected open one)"),
        (["messages"], [], "message log: the last messages with their time"),
        (["alert", "alertLog"], [], "price alert on the selected row / alert log"),
        (["help"], [], "show or hide this help"),
        (["quit"], ["Ctrl-C"], "quit"),
        ([], ["Ctrl-Z"], "suspend (fg in the shell resumes)"),
        (["dismiss"], [], "close what is open, dismiss a message"),
    ]

    /// The table's lines with the keys bound now: characters first, then named keys, as "j  k  ↓  ↑".
    /// The nine list keys, when they are still 1 … 9, are written so.
    private var entries: [(keys: String, meaning: String)] {
        Self.table.compactMap { line in
            let bound = line.actions.flatMap { keys.keys(named: $0) }
            guard !bound.isEmpty || !line.fixed.isEmpty else { return nil }
            let digits = (1...9).map { KeyPress.character(Character("\($0)")) }
            if bound == digits { return ("1 … 9", line.meaning) }
            let characters = bound.filter { if case .character = $0 { true } else { false } }
            let named = bound.filter { if case .character = $0 { false } else { true } }
            let names = (characters + named).map(KeyName.display) + line.fixed
            return (names.joined(separator: "  "), line.meaning)
        }
    }

    /// What the screen shows besides keys.
    private static let marks: [(keys: String, meaning: String)] = [
        // One line for the marks: the help must fit a 100x30 terminal whole.
        ("~  !  *", "~ stale · ! alert fired, or broker off the others · * best"),
    ]

    private static let promptEntries: [(keys: String, meaning: String)] = [
        ("Enter", "add symbols: AAPL MSFT or AAPL,MSFT"),
        ("Esc", "cancel"),
    ]

    func draw(into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        let entries = entries
        let keyWidth = entries.map { TerminalText.width($0.keys) }.max() ?? 0
        var lines: [StyledText] = [StyledText()]
        for entry in entries {
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

        let closingKey = keys.keys(named: "help").first.map(KeyName.display) ?? "Esc"
        OverlayBox(title: "Keys", closingKey: closingKey, palette: palette).draw(lines, into: &buffer, rows: area)
    }
}
