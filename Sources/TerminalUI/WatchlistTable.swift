import Domain
import Foundation
import Interactors

/// The column headings and the rows of quotes, from `state.scrollOffset`, in `area` (heading row first).
struct WatchlistTable {
    let state: WatchlistViewState
    let now: Date
    let palette: Palette

    func draw(into buffer: inout ScreenBuffer, headingRow: Int, rows tableRows: Range<Int>) {
        // Only the rows on screen are formatted, so a 1,000-row watchlist costs what a screenful costs.
        // Symbol and broker widths still come from every row (cheap), so scrolling never shifts them.
        let first = min(max(0, state.scrollOffset), state.rows.count)
        let visible = first..<min(state.rows.count, first + max(0, tableRows.count))
        var texts = FormattedRows(capacity: visible.count)
        for index in visible {
            texts.append(state.rows[index], now: now)
        }
        let layout = ColumnLayout.fit(demand: demand(texts), width: buffer.size.columns)
        drawHeadings(layout, into: &buffer, row: headingRow, visibleRows: tableRows.count)

        guard !state.rows.isEmpty else {
            drawEmptyState(into: &buffer, rows: tableRows)
            return
        }
        let numeric = layout.placements.filter(\.column.isNumeric)
        for (offset, (screenRow, index)) in zip(tableRows, visible).enumerated() {
            drawRow(index, texts: texts, offset: offset, layout: layout, numeric: numeric, into: &buffer, row: screenRow)
        }
    }

    // MARK: Content

    /// The texts of the rows on screen, formatted once (to size the columns, then to draw them) into
    /// one array of scalar values: a 1,000-row frame shows 7,000 numbers, and a String each cost
    /// more than drawing the whole frame.
    private struct FormattedRows {
        static let valueColumns: [ColumnLayout.Column] = [.last, .change, .changePercent, .bid, .ask, .volume, .age]
        /// Per row: the symbol, then one field per value column.
        static let fieldsPerRow = 1 + valueColumns.count

        static func field(of column: ColumnLayout.Column) -> Int? {
            switch column {
            case .symbol, .broker: nil
            case .last: 1
            case .change: 2
            case .changePercent: 3
            case .bid: 4
            case .ask: 5
            case .volume: 6
            case .age: 7
            }
        }

        /// A broker's glyph and name as cells, made once per broker rather than once per row.
        struct Brand {
            var branding: ServiceBranding
            var glyph: UInt32
            var name: [UInt32]
        }

        private(set) var scalars: [UInt32] = []
        /// `fieldsPerRow` per row: where each text is in `scalars`; nil for a value the quote lacks.
        private var bounds: [Range<Int>?] = []
        private(set) var brands: [Brand] = []
        private var brandOfRow: [Int] = []
        private var errors: [String?] = []

        init(capacity: Int) {
            scalars.reserveCapacity(capacity * 48)
            bounds.reserveCapacity(capacity * Self.fieldsPerRow)
            brandOfRow.reserveCapacity(capacity)
            errors.reserveCapacity(capacity)
        }

        var count: Int { errors.count }

        mutating func append(_ row: WatchlistRow, now: Date) {
            var start = scalars.count
            TerminalText.appendSanitizedCells(of: row.key.symbol, to: &scalars)
            bounds.append(start..<scalars.count)
            brandOfRow.append(brandIndex(row.branding))
            if let quote = row.quote {
                let decimals = QuoteFormatting.decimals(forPrice: quote.last)
                func field(_ format: (inout [UInt32]) -> Void) {
                    start = scalars.count
                    format(&scalars)
                    bounds.append(start..<scalars.count)
                }
                field { QuoteFormatting.appendPrice(quote.last, to: &$0) }
                if let change = quote.change { field { QuoteFormatting.appendChange(change, decimals: decimals, to: &$0) } } else { bounds.append(nil) }
                if let percent = quote.changePercent { field { QuoteFormatting.appendPercent(percent, to: &$0) } } else { bounds.append(nil) }
                if let bid = quote.bid { field { QuoteFormatting.appendPrice(bid, to: &$0) } } else { bounds.append(nil) }
                if let ask = quote.ask { field { QuoteFormatting.appendPrice(ask, to: &$0) } } else { bounds.append(nil) }
                if let volume = quote.volume { field { QuoteFormatting.appendVolume(volume, to: &$0) } } else { bounds.append(nil) }
                field { QuoteFormatting.appendAge(since: quote.timestamp, now: now, to: &$0) }
            } else {
                bounds.append(contentsOf: repeatElement(nil, count: Self.valueColumns.count))
            }
            errors.append(row.error.map(TerminalText.sanitize).flatMap { $0.isEmpty ? nil : $0 })
        }

        private mutating func brandIndex(_ branding: ServiceBranding) -> Int {
            if let index = brands.firstIndex(where: { $0.branding == branding }) { return index }
            var name: [UInt32] = []
            TerminalText.appendSanitizedCells(of: branding.name, to: &name)
            let glyph = WatchlistTable.glyph(of: branding).unicodeScalars.first?.value ?? 0x2022
            brands.append(Brand(branding: branding, glyph: glyph, name: name))
            return brands.count - 1
        }

        func symbol(_ row: Int) -> ArraySlice<UInt32> {
            scalars[bounds[row * Self.fieldsPerRow]!]
        }

        func value(_ column: ColumnLayout.Column, _ row: Int) -> ArraySlice<UInt32>? {
            guard let field = Self.field(of: column), let range = bounds[row * Self.fieldsPerRow + field] else { return nil }
            return scalars[range]
        }

        func brand(_ row: Int) -> Brand { brands[brandOfRow[row]] }
        func error(_ row: Int) -> String? { errors[row] }
    }

    /// A broker's glyph as exactly one cell, whatever the configuration says.
    static func glyph(of branding: ServiceBranding) -> Character {
        TerminalText.cells(TerminalText.sanitize(branding.glyph)).first
            ?? TerminalText.cells(TerminalText.sanitize(branding.name)).first
            ?? "•"
    }

    private func demand(_ texts: FormattedRows) -> [ColumnLayout.Column: Int] {
        var demand: [ColumnLayout.Column: Int] = [:]
        for column in ColumnLayout.Column.allCases where column != .volume {
            demand[column] = column.heading.count
        }
        var symbolWidth = demand[.symbol]!
        // The first row of each broker names it, as brokers are few: a list beats hashing each id.
        var brokerNameWidths: [(id: String, width: Int)] = []
        for row in state.rows {
            // Symbols are validated ASCII, so their length is their width.
            symbolWidth = max(symbolWidth, row.key.symbol.utf8.count)
            if !brokerNameWidths.contains(where: { $0.id == row.branding.id }) {
                brokerNameWidths.append((row.branding.id, TerminalText.cells(TerminalText.sanitize(row.branding.name)).count))
            }
        }
        for (_, width) in brokerNameWidths {
            demand[.broker] = max(demand[.broker]!, width + 2)
        }
        var valueWidths = [Int?](repeating: nil, count: FormattedRows.fieldsPerRow)
        for row in 0..<texts.count {
            symbolWidth = max(symbolWidth, texts.symbol(row).count)
            for column in FormattedRows.valueColumns {
                guard let value = texts.value(column, row), let field = FormattedRows.field(of: column) else { continue }
                valueWidths[field] = max(valueWidths[field] ?? demand[column] ?? column.heading.count, value.count)
            }
        }
        demand[.symbol] = symbolWidth
        for column in FormattedRows.valueColumns {
            if let field = FormattedRows.field(of: column), let width = valueWidths[field] { demand[column] = width }
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

    private func drawRow(
        _ index: Int, texts: FormattedRows, offset: Int, layout: ColumnLayout, numeric: [ColumnLayout.Placement],
        into buffer: inout ScreenBuffer, row: Int
    ) {
        let item = state.rows[index]
        for placement in layout.placements {
            switch placement.column {
            case .symbol:
                drawTruncated(texts.symbol(offset), in: placement.x, width: placement.width, style: CellCode.bold, into: &buffer, row: row)
            case .broker:
                let brand = texts.brand(offset)
                buffer.write(
                    scalars: CollectionOfOne(brand.glyph), column: placement.x, row: row,
                    style: CellCode.bits(palette.brand(item.branding.color)))
                if layout.brokerLabel == .glyphAndName {
                    drawTruncated(brand.name[...], in: placement.x + 2, width: placement.width - 2, style: 0, into: &buffer, row: row)
                }
            default:
                continue
            }
        }

        if let error = texts.error(offset), let start = numeric.first?.x {
            let transient = isReconnecting(item.branding.id)
            let cells = TerminalText.truncatedCells(error, toWidth: buffer.size.columns - 1 - start)
            buffer.write(cells: cells, column: start, row: row, style: palette.rowError(transient: transient))
        } else {
            for placement in numeric {
                drawValue(texts.value(placement.column, offset), in: placement, item: item, into: &buffer, row: row)
            }
        }

        if isStale(item) {
            buffer.add(flags: CellCode.dim, row: row)
            // Dim alone is lost without color support or in a copied screen: the margin says it too.
            buffer.write(cells: [Self.staleMark], column: 0, row: row, style: palette.muted)
        }
        if index == state.selectedIndex {
            buffer.toggle(flags: CellCode.reverse, row: row)
        }
    }

    private func drawValue(
        _ value: ArraySlice<UInt32>?, in placement: ColumnLayout.Placement, item: WatchlistRow,
        into buffer: inout ScreenBuffer, row: Int
    ) {
        guard let value else {
            let missing = CollectionOfOne(QuoteFormatting.missingScalar)
            buffer.write(scalars: missing, column: placement.end - missing.count, row: row, style: CellCode.bits(palette.muted))
            return
        }
        let style: UInt64
        switch placement.column {
        case .last where isFlashing(item):
            style = CellCode.bits(palette.flash(direction: item.lastChangeDirection))
            buffer.fill(row: row, from: placement.x, to: placement.end, style: palette.flash(direction: item.lastChangeDirection))
        case .change:
            style = CellCode.bits(palette.trend(item.quote?.change ?? 0))
        case .changePercent:
            style = CellCode.bits(palette.trend(item.quote?.changePercent ?? 0))
        default:
            style = 0
        }
        // Never cut a number: a clipped price is a wrong price.
        if value.count <= placement.width {
            buffer.write(scalars: value, column: placement.end - value.count, row: row, style: style)
        } else {
            let hashes = repeatElement(UInt32(0x23), count: placement.width)  // "#"
            buffer.write(scalars: hashes, column: placement.end - hashes.count, row: row, style: style)
        }
    }

    /// `cells` in at most `width` cells, ending in "…" when cut.
    private func drawTruncated(
        _ cells: ArraySlice<UInt32>, in column: Int, width: Int, style: UInt64, into buffer: inout ScreenBuffer, row: Int
    ) {
        guard cells.count > width else {
            buffer.write(scalars: cells, column: column, row: row, style: style)
            return
        }
        guard width > 0 else { return }
        let x = buffer.write(scalars: cells.prefix(width - 1), column: column, row: row, style: style)
        buffer.write(scalars: CollectionOfOne(TerminalText.ellipsis.unicodeScalars.first!.value), column: x, row: row, style: style)
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
