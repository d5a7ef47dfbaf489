import TerminalKit

/// A plain table for the trading screens: each column has a title, an alignment and a priority; when the
/// terminal is narrow the least needed columns go first, never the first one.
struct FittedTable {
    struct Column {
        var title: String
        var alignRight: Bool
        /// Higher stays longer.
        var priority: Int
    }

    let columns: [Column]
    static let gap = 2

    /// Which columns fit in `width` given every row's cells, and each one's width.
    func fit(rows: [[StyledText]], width: Int) -> [(index: Int, width: Int)] {
        var widths = columns.map { TerminalText.width($0.title) }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.width)
            }
        }
        var kept = Array(columns.indices)
        func total() -> Int { kept.map { widths[$0] }.reduce(0, +) + Self.gap * max(0, kept.count - 1) }
        while total() > width, kept.count > 1 {
            let drop = kept.dropFirst().min { columns[$0].priority < columns[$1].priority }!
            kept.removeAll { $0 == drop }
        }
        return kept.map { ($0, widths[$0]) }
    }

    func line(_ cells: [StyledText], fitted: [(index: Int, width: Int)], style: Style = .plain) -> StyledText {
        var line = StyledText()
        for (position, column) in fitted.enumerated() {
            if position > 0 { line.append(String(repeating: " ", count: Self.gap), style: style) }
            let cell = column.index < cells.count ? cells[column.index] : StyledText()
            let pad = String(repeating: " ", count: max(0, column.width - cell.width))
            if columns[column.index].alignRight {
                line.append(pad, style: style)
                line.append(cell)
            } else {
                line.append(cell)
                line.append(pad, style: style)
            }
        }
        return line
    }

    func heading(fitted: [(index: Int, width: Int)], style: Style) -> StyledText {
        line(columns.map { StyledText($0.title, style: style) }, fitted: fitted, style: style)
    }
}
