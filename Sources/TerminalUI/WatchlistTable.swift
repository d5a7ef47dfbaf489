import Domain
import Foundation
import Interactors

/// The column headings and the rows of quotes, from `state.scrollOffset`, in `area` (heading row first).
struct WatchlistTable {
    let state: WatchlistViewState
    let now: Date
    let palette: Palette

    /// One row's texts, formatted once and used both to size the columns and to draw them.
    private struct RowText {
        var symbol: [Character]
        var glyph: Character
        var brokerName: [Character]
        var values: [ColumnLayout.Column: String]
        var error: String?
    }

    func draw(into buffer: inout ScreenBuffer, headingRow: Int, rows tableRows: Range<Int>) {
        // Only the rows on screen are formatted, so a 1,000-row watchlist costs what a screenful costs.
        // Symbol and broker widths still come from every row (cheap), so scrolling never shifts them.
        let first = min(max(0, state.scrollOffset), state.rows.count)
        let visible = first..<min(state.rows.count, first + max(0, tableRows.count))
        let texts = state.rows[visible].map(rowText)
        let layout = ColumnLayout.fit(demand: demand(texts), width: buffer.size.columns)
        drawHeadings(layout, into: &buffer, row: headingRow, visibleRows: tableRows.count)

        guard !state.rows.isEmpty else {
            drawEmptyState(into: &buffer, rows: tableRows)
            return
        }
        for (screenRow, (index, text)) in zip(tableRows, zip(visible, texts)) {
            drawRow(index, text: text, layout: layout, into: &buffer, row: screenRow)
        }
    }

    // MARK: Content

    private func rowText(_ row: WatchlistRow) -> RowText {
        let symbol = TerminalText.cells(TerminalText.sanitize(row.key.symbol))
        let glyph = Self.glyph(of: row.branding)
        let name = TerminalText.cells(TerminalText.sanitize(row.branding.name))
        var values: [ColumnLayout.Column: String] = [:]
        if let quote = row.quote {
            let decimals = QuoteFormatting.decimals(forPrice: quote.last)
            values[.last] = QuoteFormatting.price(quote.last)
            values[.change] = quote.change.map { QuoteFormatting.change($0, decimals: decimals) }
            values[.changePercent] = quote.changePercent.map(QuoteFormatting.percent)
            values[.bid] = quote.bid.map(QuoteFormatting.price)
            values[.ask] = quote.ask.map(QuoteFormatting.price)
            values[.volume] = quote.volume.map(QuoteFormatting.volume)
            values[.age] = QuoteFormatting.age(since: quote.timestamp, now: now)
        }
        let error = row.error.map(TerminalText.sanitize).flatMap { $0.isEmpty ? nil : $0 }
        return RowText(symbol: symbol, glyph: glyph, brokerName: name, values: values, error: error)
    }

    /// A broker's glyph as exactly one cell, whatever the configuration says.
    static func glyph(of branding: ServiceBranding) -> Character {
        TerminalText.cells(TerminalText.sanitize(branding.glyph)).first
            ?? TerminalText.cells(TerminalText.sanitize(branding.name)).first
            ?? "•"
    }

    private func demand(_ texts: [RowText]) -> [ColumnLayout.Column: Int] {
        var demand: [ColumnLayout.Column: Int] = [:]
        for column in ColumnLayout.Column.allCases where column != .volume {
            demand[column] = column.heading.count
        }
        var brokerNameWidths: [String: Int] = [:]
        for row in state.rows {
            // Symbols are validated ASCII, so their length is their width.
            demand[.symbol] = max(demand[.symbol]!, row.key.symbol.utf8.count)
            if brokerNameWidths[row.branding.id] == nil {
                brokerNameWidths[row.branding.id] = TerminalText.cells(TerminalText.sanitize(row.branding.name)).count
            }
        }
        for width in brokerNameWidths.values {
            demand[.broker] = max(demand[.broker]!, width + 2)
        }
        for text in texts {
            demand[.symbol] = max(demand[.symbol]!, text.symbol.count)
            for (column, value) in text.values {
                demand[column] = max(demand[column] ?? column.heading.count, value.count)
            }
        }
        return demand
    }

    // MARK: Drawing

    private func drawHeadings(_ layout: ColumnLayout, into buffer: inout ScreenBuffer, row: Int, visibleRows: Int) {
        buffer.fill(row: row, style: palette.heading)
        for placement in layout.placements {
            if placement.column == .broker, layout.brokerLabel == .glyphOnly { continue }
            let heading = TerminalText.truncatedCells(placement.column.heading, toWidth: placement.width)
            let x = placement.column.isNumeric ? placement.end - heading.count : placement.x
            buffer.write(cells: heading, column: x, row: row, style: palette.heading)
        }
        guard state.rows.count > visibleRows, visibleRows > 0 else { return }
        let first = min(max(0, state.scrollOffset), state.rows.count)
        let last = min(state.rows.count, first + visibleRows)
        let position = TerminalText.cells("\(first + 1)-\(last) of \(state.rows.count)")
        let x = buffer.size.columns - 1 - position.count
        if x >= layout.end + ColumnLayout.gap {
            buffer.write(cells: position, column: x, row: row, style: palette.heading)
        }
    }

    private func drawEmptyState(into buffer: inout ScreenBuffer, rows: Range<Int>) {
        guard let row = rows.first.map({ $0 + max(0, rows.count - 1) / 2 }) else { return }
        var text = StyledText("No symbols — press ", style: palette.muted)
        text.append("a", style: palette.hintKey)
        text.append(" to add", style: palette.muted)
        let shown = text.truncated(toWidth: buffer.size.columns - 2)
        shown.draw(into: &buffer, column: max(1, (buffer.size.columns - shown.width) / 2), row: row)
    }

    private func drawRow(_ index: Int, text: RowText, layout: ColumnLayout, into buffer: inout ScreenBuffer, row: Int) {
        let item = state.rows[index]
        for placement in layout.placements {
            switch placement.column {
            case .symbol:
                buffer.write(
                    cells: truncated(text.symbol, placement.width), column: placement.x, row: row, style: Style(bold: true))
            case .broker:
                buffer.write(cells: [text.glyph], column: placement.x, row: row, style: palette.brand(item.branding.color))
                if layout.brokerLabel == .glyphAndName {
                    buffer.write(cells: truncated(text.brokerName, placement.width - 2), column: placement.x + 2, row: row)
                }
            default:
                continue
            }
        }

        let numeric = layout.placements.filter(\.column.isNumeric)
        if let error = text.error, let start = numeric.first?.x {
            let transient = isReconnecting(item.branding.id)
            let cells = TerminalText.truncatedCells(error, toWidth: buffer.size.columns - 1 - start)
            buffer.write(cells: cells, column: start, row: row, style: palette.rowError(transient: transient))
        } else {
            for placement in numeric {
                drawValue(text.values[placement.column], in: placement, item: item, into: &buffer, row: row)
            }
        }

        if isStale(item) {
            buffer.restyle(row: row) { $0.dim = true }
            // Dim alone is lost without color support or in a copied screen: the margin says it too.
            buffer.write(cells: [Self.staleMark], column: 0, row: row, style: palette.muted)
        }
        if index == state.selectedIndex {
            buffer.restyle(row: row) { $0.reverse.toggle() }
        }
    }

    private func drawValue(
        _ value: String?, in placement: ColumnLayout.Placement, item: WatchlistRow, into buffer: inout ScreenBuffer, row: Int
    ) {
        guard let value else {
            let missing = Array(QuoteFormatting.missing)
            buffer.write(cells: missing, column: placement.end - missing.count, row: row, style: palette.muted)
            return
        }
        // Never cut a number: a clipped price is a wrong price.
        let cells = value.count <= placement.width ? Array(value) : Array(repeating: "#", count: placement.width)
        let x = placement.end - cells.count
        switch placement.column {
        case .last where isFlashing(item):
            buffer.fill(row: row, from: placement.x, to: placement.end, style: palette.flash(direction: item.lastChangeDirection))
            buffer.write(cells: cells, column: x, row: row, style: palette.flash(direction: item.lastChangeDirection))
        case .change:
            buffer.write(cells: cells, column: x, row: row, style: palette.trend(item.quote?.change ?? 0))
        case .changePercent:
            buffer.write(cells: cells, column: x, row: row, style: palette.trend(item.quote?.changePercent ?? 0))
        default:
            buffer.write(cells: cells, column: x, row: row)
        }
    }

    private func truncated(_ cells: [Character], _ width: Int) -> [Character] {
        guard cells.count > width else { return cells }
        guard width > 0 else { return [] }
        return Array(cells.prefix(width - 1)) + [TerminalText.ellipsis]
    }

    private func isFlashing(_ row: WatchlistRow) -> Bool {
        guard let changedAt = row.lastChangeAt else { return false }
        return now.timeIntervalSince(changedAt) < state.highlightFor
    }

    /// In the left margin of a row whose last quote is older than `staleAfter` (see the help overlay).
    static let staleMark: Character = "~"

    private func isStale(_ row: WatchlistRow) -> Bool {
        guard let receivedAt = row.receivedAt else { return false }
        return now.timeIntervalSince(receivedAt) > state.staleAfter
    }

    private func isReconnecting(_ brandID: String) -> Bool {
        switch state.brokers.first(where: { $0.branding.id == brandID })?.state {
        case .connecting, .reconnecting: true
        default: false
        }
    }
}
