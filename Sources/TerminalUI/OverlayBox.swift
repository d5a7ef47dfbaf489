import TerminalKit
/// A centered, bordered box of lines drawn over the screen between header and footer, which is dimmed
/// behind it: the help and the message log. Lines that do not fit are dropped from the end, blank ones
/// first, and the last line kept says so.
struct OverlayBox {
    let title: String
    /// The key that opened the box; the bottom border says "<key> or Esc closes".
    let closingKey: String
    let palette: Palette

    func draw(_ lines: [StyledText], into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        var lines = lines
        let columns = buffer.size.columns
        let innerWidth = min((lines.map(\.width).max() ?? 0) + 4, columns - 2)
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

        let title = TerminalText.cells(" \(self.title) ")
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
        if closingKey != "Esc" {
            closing.append(closingKey, style: palette.overlayKey)
            closing.append(" or ")
        }
        closing.append("Esc", style: palette.overlayKey)
        closing.append(" closes ")
        if closing.width <= innerWidth - 2 {
            closing.draw(into: &buffer, column: left + 2, row: top + height - 1)
        }
    }
}
