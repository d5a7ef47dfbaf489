import Interactors

/// A centered box listing every key, drawn over the table (which is dimmed behind it). Keep it in
/// step with `KeyMap`.
struct HelpOverlay {
    let palette: Palette

    private static let entries: [(keys: String, meaning: String)] = [
        ("a  +", "add symbols"),
        ("d  Delete", "remove the selected row"),
        ("u", "undo the last remove"),
        ("j  k  ↑  ↓", "move the selection"),
        ("PgUp  PgDn", "page up / down"),
        ("g  G  Home  End", "first / last row"),
        ("s", "sort by " + SortOrder.allCases.map(\.label).joined(separator: ", ")),
        ("A", "accounts: equity, buying power, cash"),
        ("?", "show or hide this help"),
        ("q  Ctrl-C", "quit"),
        ("Esc", "close help, dismiss a message"),
    ]

    /// What the screen shows besides keys.
    private static let marks: [(keys: String, meaning: String)] = [
        ("~ dimmed row", "stale: no update for a while (staleAfterSeconds)"),
    ]

    private static let promptEntries: [(keys: String, meaning: String)] = [
        ("Enter", "add symbols: AAPL MSFT or AAPL,MSFT"),
        ("Esc", "cancel"),
    ]

    func draw(into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        let columns = buffer.size.columns
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

        let innerWidth = min(lines.map(\.width).max()! + 4, columns - 2)
        let availableLines = area.count - 2
        guard innerWidth > 4, availableLines > 0 else { return }
        if lines.count > availableLines {
            lines.removeAll(where: \.isEmpty)
        }
        if lines.count > availableLines {
            let more = StyledText("… more in a taller terminal", style: palette.overlayTitle)
            lines = Array(lines.prefix(availableLines - 1)) + [more]
        }

        let height = lines.count + 2
        let left = (columns - innerWidth - 2) / 2
        let top = area.lowerBound + (area.count - height) / 2
        let right = left + innerWidth + 1

        for row in area { buffer.restyle(row: row) { $0.dim = true } }

        let title = TerminalText.cells(" Keys ")
        var topBorder: [Character] = ["┌", "─"] + title
        topBorder += Array(repeating: "─", count: max(0, innerWidth - 1 - title.count)) + ["┐"]
        buffer.write(cells: topBorder, column: left, row: top, style: palette.overlayBorder)
        buffer.write(cells: title, column: left + 2, row: top, style: palette.overlayTitle)
        for (offset, line) in lines.enumerated() {
            let row = top + 1 + offset
            buffer.write(cells: ["│"], column: left, row: row, style: palette.overlayBorder)
            buffer.write(cells: Array(repeating: " ", count: innerWidth), column: left + 1, row: row)
            line.truncated(toWidth: innerWidth - 4).draw(into: &buffer, column: left + 3, row: row)
            buffer.write(cells: ["│"], column: right, row: row, style: palette.overlayBorder)
        }
        let bottomBorder: [Character] = ["└"] + Array(repeating: "─", count: innerWidth) + ["┘"]
        buffer.write(cells: bottomBorder, column: left, row: top + height - 1, style: palette.overlayBorder)
        var closing = StyledText(" ")
        closing.append("?", style: palette.overlayKey)
        closing.append(" or ")
        closing.append("Esc", style: palette.overlayKey)
        closing.append(" closes ")
        if closing.width <= innerWidth - 2 {
            closing.draw(into: &buffer, column: left + 2, row: top + height - 1)
        }
    }
}
