import TerminalKit
import Domain
import Foundation
import Interactors
import Stores
import TextSafety

/// The column headings and the rows of quotes, from `firstRow`, in `area` (heading row first).
struct WatchlistTable {
    let state: WatchlistViewState
    let now: Date
    let palette: Palette
    /// The first row drawn (see `TableViewport`).
    let firstRow: Int
    /// The US equity market now: while it is closed, the age of a price from its last session says
    /// "closed", and the row is not marked stale.
    var market: MarketState? = nil
    /// false: ASCII marks and sparklines (a locale that is not UTF-8).
    var unicode = true

    /// Draws headings and rows. Returns the scroll position ("13-24 of 40") when the rows do not all fit
    /// and the heading row had no room for it, for the header to show instead.
    @discardableResult
    func draw(into buffer: inout ScreenBuffer, headingRow: Int, rows tableRows: Range<Int>) -> String? {
        var cache = WatchlistTableCache()
        return draw(into: &buffer, headingRow: headingRow, rows: tableRows, cache: &cache)
    }

    /// `draw`, redoing only what changed since the frames `cache` kept (`WatchlistTableCache`): the
    /// frame is the same with any cache.
    @discardableResult
    func draw(into buffer: inout ScreenBuffer, headingRow: Int, rows tableRows: Range<Int>, cache: inout WatchlistTableCache) -> String? {
        // Only the rows on screen are formatted, so a 1,000-row watchlist costs what a screenful costs.
        // Symbol and broker widths still come from every row (cheap), so scrolling never shifts them.
        let first = min(max(0, firstRow), state.rows.count)
        let visible = first..<min(state.rows.count, first + max(0, tableRows.count))
        var texts = FormattedRows(capacity: visible.count)
        var looks: [RowLook] = []
        looks.reserveCapacity(visible.count)
        var keys: [WatchlistTableCache.RowKey] = []
        keys.reserveCapacity(visible.count)
        let perSymbol = state.rows.mode == .perSymbol
        let brokers = state.rows.groups.brokers
        // The cross-broker figures: what the per-symbol row shows, and the marks and flags of the
        // per-broker rows. Only with something to compare, and once per symbol while its rows follow
        // each other; the cache consolidates again only a symbol whose quotes or live sources changed.
        let compares = perSymbol || brokers.count > 1
        let sparklineCount = state.columns.contains(.sparkline) ? state.rows.sparklines.count : 0
        // Held in place (not an optional, which each read would copy whole), valid while `hasCross`.
        var cross = WatchlistTableCache.CrossFigures(
            quote: CrossBrokerQuote([], now: now, staleAfter: state.staleAfter, outlierBasisPoints: state.outlierBasisPoints),
            disagreementBasisPoints: nil)
        var hasCross = false
        var crossGroup = -1
        // The per-symbol row shows its source's and its best bid's and ask's brokers in their colors:
        // styled once a frame per broker, not three times a row (each a copy of the branding's strings).
        let brokerBrands = perSymbol ? brokers.map { CellCode.bits(palette.brand($0)) } : []
        cache.prepareRows(count: state.rows.count, visible: visible)
        // Rows are read in place, slot and store entry through pointers: a copy of each costs a dozen
        // reference counts, and a 1,000-row frame reads 1,000 of them.
        state.rows.withRows { slots, entries in
            for index in visible {
                let slot = slots.baseAddress! + index
                if compares, slot.pointee.group != crossGroup {
                    crossGroup = slot.pointee.group
                    hasCross = crossGroup >= 0
                    if hasCross {
                        cross = cache.crossBroker(
                            group: crossGroup, rows: state.rows, now: now, staleAfter: state.staleAfter,
                            outlierBasisPoints: state.outlierBasisPoints, market: market)
                    }
                }
                // The per-symbol row reads the freshest source's entry; the per-broker row its own.
                var source = -1
                if perSymbol {
                    source = hasCross ? cross.quote.last?.source ?? -1 : -1
                } else if hasCross {
                    source = slot.pointee.broker >= 0 ? slot.pointee.broker
                        : brokers.indices.first { state.rows.entryIndex(group: crossGroup, broker: $0) == slot.pointee.entry } ?? -1
                }
                let entryIndex = perSymbol && source >= 0 ? state.rows.entryIndex(group: crossGroup, broker: source) : slot.pointee.entry
                let entry = entries.baseAddress! + entryIndex
                let brokerID = perSymbol && source >= 0 ? brokers[source].id : slot.pointee.key.brandID
                let error = entry.pointee.quote?.timestamp == nil ? state.rows.error(of: entry.pointee, brokerID: brokerID) : nil
                let consolidated = perSymbol && hasCross
                let bid = consolidated ? cross.quote.bestBid?.price : entry.pointee.quote?.bid
                let ask = consolidated ? cross.quote.bestAsk?.price : entry.pointee.quote?.ask
                let figuresKey = WatchlistTableCache.FiguresKey(
                    last: entry.pointee.quote?.last, previousClose: entry.pointee.quote?.previousClose, volume: entry.pointee.quote?.volume,
                    bid: bid, ask: ask, disagreementBasisPoints: consolidated ? cross.disagreementBasisPoints : nil)
                let age = (entry.pointee.quote?.timestamp).map {
                    QuoteFormatting.ageNumber(since: $0, now: now, symbol: slot.pointee.key.symbol, market: market)
                }
                cache.figures(row: index, key: figuresKey) { figures in
                    FormattedRows.format(entry, bid: bid, ask: ask, disagreementBasisPoints: figuresKey.disagreementBasisPoints, into: figures)
                } _: { figures in
                    texts.append(
                        slot, sourceBroker: perSymbol ? source : -1, bidSource: consolidated ? cross.quote.bestBid?.source ?? -1 : -1,
                        askSource: consolidated ? cross.quote.bestAsk?.source ?? -1 : -1, brokers: brokers,
                        sparkline: entryIndex < sparklineCount ? entryIndex : -1, error: error, figures: figures, age: age)
                }
                let sourceBrand = perSymbol && hasCross && source >= 0 ? brokerBrands[source] : nil
                var rowLook = look(of: slot, entry, brand: sourceBrand, hasError: error != nil, at: index)
                if hasCross, source >= 0 {
                    if perSymbol {
                        if let bid = cross.quote.bestBid { rowLook.bidBrand = brokerBrands[bid.source] }
                        if let ask = cross.quote.bestAsk { rowLook.askBrand = brokerBrands[ask.source] }
                    } else {
                        // A best price among one is no news: marked only where two brokers or more quote one.
                        rowLook.isBestBid = cross.quote.bestBidSources.contains(source) && cross.quote.quotedBids > 1
                        rowLook.isBestAsk = cross.quote.bestAskSources.contains(source) && cross.quote.quotedAsks > 1
                        rowLook.flag = cross.quote.flag(of: source)
                    }
                }
                looks.append(rowLook)
                cache.noteTexts(row: index, symbol: slot.pointee.key.symbol, brand: texts.brand(texts.count - 1), error: error)
                keys.append(WatchlistTableCache.RowKey(
                    figures: figuresKey, age: age,
                    bidSource: consolidated ? cross.quote.bestBid?.source ?? -1 : -1, askSource: consolidated ? cross.quote.bestAsk?.source ?? -1 : -1,
                    sparkline: entryIndex < sparklineCount ? entryIndex : -1, sparklineGeneration: 0, look: rowLook))
            }
        }
        let position = positionText(height: tableRows.count)
        let layoutKey = WatchlistTableCache.LayoutKey(
            demand: demand(texts, cache: &cache), width: buffer.size.columns,
            reserved: position.map { $0.utf8.count + ColumnLayout.gap + 1 } ?? 0,
            order: state.columns.map(ColumnLayout.Column.init), perSymbol: perSymbol)
        let layout = cache.layout(for: layoutKey) {
            ColumnLayout.fit(demand: $0.demand, width: $0.width, reserved: $0.reserved, order: $0.order, perSymbol: $0.perSymbol)
        }
        let headingsKey = WatchlistTableCache.HeadingsKey(
            layout: layout, position: position, palette: palette, rowCount: state.rows.count, mode: state.rows.mode, sort: state.sort,
            sortReversed: state.sortReversed, unicode: unicode, columns: buffer.size.columns)
        let unplacedPosition = cache.headings.draw(into: &buffer, row: headingRow, key: headingsKey) { buffer in
            drawHeadings(layout, position: position, into: &buffer, row: headingRow)
        }

        guard !state.rows.isEmpty else {
            drawEmptyState(into: &buffer, rows: tableRows)
            return unplacedPosition
        }
        let numeric = layout.placements.filter(\.column.isNumeric)
        let sparkline = layout.placement(of: .sparkline)
        // A row drawn on an earlier frame from the same figures, look and sparkline, under the same
        // layout, is put back as it was drawn.
        cache.beginDrawing(WatchlistTableCache.FrameKey(
            layout: layout, palette: palette, columns: buffer.size.columns, brokers: brokers, brandings: texts.brandings))
        texts.scalars.withUnsafeBufferPointer { scalars in
            for (offset, screenRow) in zip(looks.indices, tableRows) {
                var key = keys[offset]
                let series = texts.error(offset) == nil ? texts.sparkline(offset) : -1
                guard let placement = sparkline, series >= 0, !state.rows.sparklines[series].isEmpty else {
                    key.sparkline = -1
                    cache.drawRow(first + offset, key: key, at: screenRow, into: &buffer) { buffer in
                        drawRow(
                            offset, texts: texts, scalars: scalars, look: looks[offset], layout: layout, numeric: numeric,
                            sparkline: nil, sparklineCells: nil, into: &buffer, row: screenRow)
                    }
                    continue
                }
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: SparklineSeries.bucketCount) { cells in
                    let (written, generation) = cache.sparkline(
                        series, series: state.rows.sparklines[series], now: now, width: placement.width, unicode: unicode, into: cells)
                    key.sparklineGeneration = generation
                    cache.drawRow(first + offset, key: key, at: screenRow, into: &buffer) { buffer in
                        drawRow(
                            offset, texts: texts, scalars: scalars, look: looks[offset], layout: layout, numeric: numeric,
                            sparkline: placement, sparklineCells: UnsafeBufferPointer(rebasing: cells[0..<written]), into: &buffer, row: screenRow)
                    }
                }
            }
        }
        return unplacedPosition
    }

    /// Figures per row (`FormattedRows.valueColumns`), for the cache.
    static let valueColumnCount = FormattedRows.valueColumns.count

    // MARK: Content

    /// The texts of the rows on screen, prepared once to size the columns and then to draw them: names
    /// as scalar values in one array, numbers as `FormattedNumber`s whose digits go straight into the
    /// frame. A 1,000-row frame shows 7,000 numbers, and a String each cost more than drawing the
    /// whole frame.
    private struct FormattedRows {
        static let valueColumns: [ColumnLayout.Column] = [.last, .change, .changePercent, .bid, .ask, .volume, .age, .spread, .previousClose, .disagreement]
        /// Per row: the symbol, the broker's name, then one field per value column.
        static let fieldsPerRow = firstValueField + valueColumns.count
        /// The field of `valueColumns[0]`; the others follow in order (`field(of:)`). Computed: a
        /// `static let` costs a `swift_once` call per read.
        static var firstValueField: Int { 2 }

        static func field(of column: ColumnLayout.Column) -> Int? {
            switch column {
            case .symbol: 0
            case .broker: 1
            case .last: 2
            case .change: 3
            case .changePercent: 4
            case .bid: 5
            case .ask: 6
            case .volume: 7
            case .age: 8
            case .spread: 9
            case .previousClose: 10
            case .disagreement: 11
            case .sparkline: nil
            }
        }


        /// The symbols and broker names.
        private(set) var scalars: [UInt32] = []
        /// Two per row: where the symbol and the broker's name are in `scalars`.
        private var bounds: [Range<Int>] = []
        /// `valueColumns.count` per row; nil for a value the quote lacks.
        private var numbers: [FormattedNumber?] = []
        /// Per broker, made once rather than once per row: its branding, its glyph as one cell and where
        /// its name is in `scalars`. Apart, so that reading a glyph or a name copies no strings.
        private(set) var brandings: [ServiceBranding] = []
        /// Per row: its broker's index in `brandings`.
        private var brands: [Int] = []
        private var brandGlyphs: [UInt32] = []
        private var brandNames: [Range<Int>] = []
        private var glyphs: [UInt32] = []
        private var errors: [String?] = []
        /// Per row, in the per-symbol view: the glyphs of the brokers with the best bid and ask (0: none).
        private var bidGlyphs: [UInt32] = []
        private var askGlyphs: [UInt32] = []
        /// Per row: the index of its sparkline in `WatchlistRows.sparklines`, -1 for none.
        private var sparklines: [Int] = []
        /// `brandIndex` per broker of the symbol groups, -1 until asked.
        private var brokerBrands: [Int] = []
        /// The `brandIndex` a slot with this broker index (`Slot.broker`) had last, -1 for none yet.
        private var slotBrands: [Int] = []

        init(capacity: Int) {
            assert(Self.valueColumns.indices.allSatisfy { Self.field(of: Self.valueColumns[$0]) == Self.firstValueField + $0 },
                "field(of:) must number the value columns in valueColumns' order: withNumbers reads them so")
            scalars.reserveCapacity(capacity * 48)
            bounds.reserveCapacity(capacity * 2)
            numbers.reserveCapacity(capacity * Self.valueColumns.count)
            glyphs.reserveCapacity(capacity)
            brands.reserveCapacity(capacity)
            errors.reserveCapacity(capacity)
            sparklines.reserveCapacity(capacity)
            bidGlyphs.reserveCapacity(capacity)
            askGlyphs.reserveCapacity(capacity)
        }

        var count: Int { errors.count }

        /// A row: the slot's symbol, the broker at `sourceBroker` in `brokers` (the slot's own when -1), its
        /// formatted `figures` (`format`) with `age` in the age's place. In the per-symbol view, the
        /// glyphs of the best bid's and ask's brokers (`bidSource`, `askSource` in `brokers`; -1: none).
        mutating func append(
            _ slot: UnsafePointer<WatchlistRows.Slot>, sourceBroker: Int, bidSource: Int, askSource: Int, brokers: [ServiceBranding],
            sparkline: Int, error: String?, figures: UnsafeBufferPointer<FormattedNumber?>, age: FormattedNumber?
        ) {
            let start = scalars.count
            TerminalText.appendSanitizedCells(of: slot.pointee.key.symbol, to: &scalars)
            bounds.append(start..<scalars.count)
            let brand = sourceBroker >= 0 ? brandIndex(ofBroker: sourceBroker, in: brokers) : brandIndex(of: slot)
            bounds.append(brandNames[brand])
            glyphs.append(brandGlyphs[brand])
            brands.append(brand)
            sparklines.append(sparkline)
            bidGlyphs.append(bidSource >= 0 ? brandGlyphs[brandIndex(ofBroker: bidSource, in: brokers)] : 0)
            askGlyphs.append(askSource >= 0 ? brandGlyphs[brandIndex(ofBroker: askSource, in: brokers)] : 0)
            let first = numbers.count
            numbers.append(contentsOf: figures)
            numbers[first + Self.ageField] = age
            errors.append(error.map(TerminalText.sanitize).flatMap { $0.isEmpty ? nil : $0 })
        }

        /// Where the age is among a row's figures: the one that moves with the clock, so the cache keeps
        /// the others and the frame fills it in.
        static let ageField = field(of: .age)! - 2

        /// The figures of `row` (`valueColumns`, the age left nil) with `bid` and `ask` shown (the row's
        /// own, or the best across brokers) and, in the per-symbol view, the disagreement.
        static func format(
            _ row: UnsafePointer<QuoteEntry>, bid: ExactDecimal?, ask: ExactDecimal?, disagreementBasisPoints: ExactDecimal?,
            into figures: UnsafeMutableBufferPointer<FormattedNumber?>
        ) {
            // Field by field: a copy of the quote goes through Optional's generic value witnesses.
            guard let last = row.pointee.quote?.last else {
                for field in figures.indices { figures[field] = nil }
                return
            }
            func put(_ column: ColumnLayout.Column, _ value: FormattedNumber?) { figures[field(of: column)! - 2] = value }
            let decimals = QuoteFormatting.decimals(forPrice: last)
            put(.last, QuoteFormatting.priceNumber(last))
            put(.change, (row.pointee.quote?.change).map { QuoteFormatting.changeNumber($0, decimals: decimals) })
            put(.changePercent, (row.pointee.quote?.changePercent).map(QuoteFormatting.percentNumber))
            put(.bid, bid.map(QuoteFormatting.priceNumber))
            put(.ask, ask.map(QuoteFormatting.priceNumber))
            put(.volume, (row.pointee.quote?.volume).map(QuoteFormatting.volumeNumber))
            put(.age, nil)  // moves with the clock: `ageField`
            if let bid, let ask, let spread = try? ask.subtracting(bid) {
                put(.spread, FormattedNumber(spread, decimals: decimals))
            } else {
                put(.spread, nil)
            }
            put(.previousClose, (row.pointee.quote?.previousClose).map(QuoteFormatting.priceNumber))
            put(.disagreement, disagreementBasisPoints.map { FormattedNumber($0, decimals: 1) })
        }

        /// `brandIndex` of the broker at `broker` in `brokers`, remembered: the per-symbol view asks three
        /// times a row, and comparing brandings compares their strings.
        private mutating func brandIndex(ofBroker broker: Int, in brokers: [ServiceBranding]) -> Int {
            if brokerBrands.count != brokers.count { brokerBrands = [Int](repeating: -1, count: brokers.count) }
            if brokerBrands[broker] < 0 { brokerBrands[broker] = brandIndex(brokers[broker]) }
            return brokerBrands[broker]
        }

        /// `brandIndex` of the slot's branding, compared in place (a copy of a branding is three strings'
        /// reference counts), first against the one its broker index named on an earlier row.
        private mutating func brandIndex(of slot: UnsafePointer<WatchlistRows.Slot>) -> Int {
            let broker = slot.pointee.broker
            if broker >= 0, broker < slotBrands.count, slotBrands[broker] >= 0 {
                let known = slotBrands[broker]
                // Field by field through the pointers: `==` on the two brandings copied both first (six
                // strings' reference counts a row, a fifth of this function's cost).
                let same = brandings.withUnsafeBufferPointer { brandings in
                    Self.same(brandings.baseAddress! + known, as: slot)
                }
                if same { return known }
            }
            let found = brandings.withUnsafeBufferPointer { brandings in
                brandings.indices.first { brandings[$0] == slot.pointee.branding }
            }
            let index = found ?? brandIndex(slot.pointee.branding)
            if broker >= 0 {
                if broker >= slotBrands.count { slotBrands += repeatElement(-1, count: broker + 1 - slotBrands.count) }
                slotBrands[broker] = index
            }
            return index
        }

        /// `ServiceBranding`'s `==`, field by field: every field it has must be here (a test holds the
        /// list). `==` through these pointers still copied both brandings first.
        private static func same(_ branding: UnsafePointer<ServiceBranding>, as slot: UnsafePointer<WatchlistRows.Slot>) -> Bool {
            branding.pointee.id == slot.pointee.branding.id && branding.pointee.name == slot.pointee.branding.name
                && branding.pointee.glyph == slot.pointee.branding.glyph && branding.pointee.color == slot.pointee.branding.color
        }

        private mutating func brandIndex(_ branding: ServiceBranding) -> Int {
            // Read in place: `firstIndex(where:)` copies each branding (three strings).
            let found = brandings.withUnsafeBufferPointer { brandings in
                brandings.indices.first { brandings[$0] == branding }
            }
            if let found { return found }
            let start = scalars.count
            TerminalText.appendSanitizedCells(of: branding.name, to: &scalars)
            let glyph = WatchlistTable.glyph(of: branding).unicodeScalars.first?.value ?? 0x2022
            brandings.append(branding)
            brandGlyphs.append(glyph)
            brandNames.append(start..<scalars.count)
            return brandings.count - 1
        }

        /// Where the symbol of `row` is in `scalars`.
        func symbol(_ row: Int) -> Range<Int> { bounds[row * 2] }
        /// Where the broker's name of `row` is in `scalars`.
        func brokerName(_ row: Int) -> Range<Int> { bounds[row * 2 + 1] }

        /// The value of `row` in a value column.
        func number(_ column: ColumnLayout.Column, _ row: Int) -> FormattedNumber? {
            Self.field(of: column).flatMap { $0 >= Self.firstValueField ? numbers[row * Self.valueColumns.count + $0 - Self.firstValueField] : nil }
        }

        /// Every row's values, `valueColumns.count` per row in `valueColumns` order (the value of
        /// `valueColumns[i]` in field `firstValueField + i`); nil where the quote lacks one.
        func withNumbers<Result>(_ body: (UnsafeBufferPointer<FormattedNumber?>) -> Result) -> Result {
            numbers.withUnsafeBufferPointer(body)
        }

        func glyph(_ row: Int) -> UInt32 { glyphs[row] }
        func brand(_ row: Int) -> Int { brands[row] }
        func error(_ row: Int) -> String? { errors[row] }
        func bidGlyph(_ row: Int) -> UInt32 { bidGlyphs[row] }
        func askGlyph(_ row: Int) -> UInt32 { askGlyphs[row] }
        func sparkline(_ row: Int) -> Int { sparklines[row] }
        /// Some row on screen shows a glyph beside its bid or ask (the per-symbol view).
        var hasPriceGlyphs: Bool { bidGlyphs.contains { $0 != 0 } || askGlyphs.contains { $0 != 0 } }
    }

    /// How a row on screen is styled, decided once from its state.
    struct RowLook: Equatable {
        var brand: UInt64
        /// The last price's style while it flashes after a move.
        var flash: Style?
        var change: UInt64
        var changePercent: UInt64
        var error: Style
        var isStale: Bool
        var isSelected: Bool
        var isAlerted: Bool
        /// The per-broker view: this row's bid or ask is the best across brokers.
        var isBestBid = false
        var isBestAsk = false
        /// The per-broker view: why this row's broker looks wrong, if it does.
        var flag: CrossBrokerQuote.Flag?
        /// The per-symbol view: the brand styles of the best bid's and ask's brokers.
        var bidBrand: UInt64 = 0
        var askBrand: UInt64 = 0
    }

    /// `brand` is the broker's style when the caller has it (the per-symbol row's source); else it is
    /// worked out from the slot's branding.
    private func look(
        of slot: UnsafePointer<WatchlistRows.Slot>, _ row: UnsafePointer<QuoteEntry>, brand: UInt64?, hasError: Bool, at index: Int
    ) -> RowLook {
        // Change % has the change's sign (a close is positive), even where the percent cuts to zero.
        let trend = CellCode.bits(palette.trend(row.pointee.quote?.change ?? 0))
        return RowLook(
            brand: brand ?? CellCode.bits(palette.brand(slot.pointee.branding)),
            flash: isFlashing(since: row.pointee.lastChangeAt) ? palette.flash(direction: row.pointee.lastChangeDirection) : nil,
            change: trend,
            changePercent: trend,
            error: hasError ? palette.rowError(transient: isReconnecting(slot.pointee.branding.id)) : .plain,
            isStale: isStale(since: row.pointee.receivedAt) && !isClosingPrice(slot, row),
            isSelected: index == state.selectedIndex,
            isAlerted: !state.alertedRows.isEmpty && state.alertedRows.contains(slot.pointee.key))
    }

    /// A broker's glyph as exactly one cell, whatever the configuration says.
    /// Controls are skipped rather than spelled out: the first cell of `\u{1b}` would be a backslash.
    static func glyph(of branding: ServiceBranding) -> Character {
        func firstCell(_ text: String) -> Character? {
            var drawable = String.UnicodeScalarView()
            drawable.append(contentsOf: text.unicodeScalars.filter { !VisibleText.isSteering($0) })
            return TerminalText.cells(String(drawable)).first
        }
        return firstCell(branding.glyph) ?? firstCell(branding.name) ?? "•"
    }

    /// The widest symbol of all the rows and the widest broker name they can show, on screen or not, so
    /// that scrolling never shifts the columns.
    static func slotWidths(of rows: WatchlistRows) -> (symbol: Int, brokerName: Int) {
        var symbolWidth = 0
        // Each name is measured once, as brokers are few: a list beats hashing. By name, not by broker
        // id: rows of one broker may carry brandings of their own (`FormattedRows.brandIndex(of:)`),
        // and a longer name on a later row must fit too.
        var brokerNameWidths: [(name: String, width: Int)] = []
        func measure(_ name: String) {
            guard !brokerNameWidths.contains(where: { $0.name == name }) else { return }
            brokerNameWidths.append((name, TerminalText.cells(TerminalText.sanitize(name)).count))
        }
        rows.slots.withUnsafeBufferPointer { rows in
            for row in rows.indices {
                // Symbols are validated ASCII, so their length is their width.
                symbolWidth = max(symbolWidth, rows[row].key.symbol.utf8.count)
                measure(rows[row].branding.name)
            }
        }
        // A per-symbol row names its freshest source, which may be any broker.
        if rows.mode == .perSymbol {
            for broker in rows.groups.brokers { measure(broker.name) }
        }
        return (symbolWidth, brokerNameWidths.map(\.width).max() ?? 0)
    }

    private func demand(_ texts: FormattedRows, cache: inout WatchlistTableCache) -> [ColumnLayout.Column: Int] {
        var demand: [ColumnLayout.Column: Int] = [:]
        // Volume, spread and previous close only when some row on screen has one.
        for column in ColumnLayout.Column.allCases where ![.volume, .spread, .previousClose, .disagreement, .sparkline].contains(column) {
            demand[column] = heading(of: column).count
        }
        // Scanned again only when the rows' order or brokers changed, not on every frame.
        let widths = cache.slotWidths(of: state.rows) { Self.slotWidths(of: state.rows) }
        var symbolWidth = max(demand[.symbol]!, widths.symbol)
        demand[.broker] = max(demand[.broker]!, widths.brokerName + 2)
        var valueWidths = [Int?](repeating: nil, count: FormattedRows.fieldsPerRow)
        // A value column's width starts from its heading's. The rows' numbers are read in place, in
        // `valueColumns` order: asking for each (row, column) by name mapped the column to its field
        // twice, 160k of a 1,000-row frame's 5.2M instructions under callgrind.
        let valueColumns = FormattedRows.valueColumns
        let headingWidths = valueColumns.map { demand[$0] ?? $0.heading.count }
        let firstValueField = FormattedRows.firstValueField
        texts.withNumbers { numbers in
            for row in 0..<texts.count {
                symbolWidth = max(symbolWidth, texts.symbol(row).count)
                let base = row * valueColumns.count
                for index in 0..<valueColumns.count {
                    guard let value = numbers[base + index] else { continue }
                    let field = firstValueField + index
                    valueWidths[field] = max(valueWidths[field] ?? headingWidths[index], value.width)
                }
            }
        }
        demand[.symbol] = symbolWidth
        for column in FormattedRows.valueColumns {
            if let field = FormattedRows.field(of: column), let width = valueWidths[field] { demand[column] = width }
        }
        // The per-symbol view writes its best bid and ask's broker glyph after the price.
        if texts.hasPriceGlyphs {
            for column in [ColumnLayout.Column.bid, .ask] {
                demand[column] = max(demand[column] ?? 0, (valueWidths[FormattedRows.field(of: column)!] ?? column.minimumWidth) + 2)
            }
        }
        // The sparkline when some row on screen has a price in its window.
        if (0..<texts.count).contains(where: { texts.sparkline($0) >= 0 && !state.rows.sparklines[texts.sparkline($0)].isEmpty }) {
            demand[.sparkline] = ColumnLayout.Column.sparkline.minimumWidth
        }
        return demand
    }

    // MARK: Drawing

    private func drawHeadings(_ layout: ColumnLayout, position: String?, into buffer: inout ScreenBuffer, row: Int) -> String? {
        buffer.fill(row: row, style: palette.heading)
        for placement in layout.placements {
            if placement.column == .broker, layout.brokerLabel == .glyphOnly { continue }
            let heading = TerminalText.truncatedCells(heading(of: placement.column), toWidth: placement.width)
            let x = placement.column.isNumeric ? placement.end - heading.count : placement.x
            buffer.write(cells: heading, column: x, row: row, style: palette.heading)
        }
        guard let position else { return nil }
        let x = buffer.size.columns - 1 - position.utf8.count
        guard x >= layout.end + ColumnLayout.gap else { return position }
        buffer.write(cells: TerminalText.cells(position), column: x, row: row, style: palette.heading)
        return nil
    }

    /// "13-24 of 40" when the rows do not all fit in `height`.
    private func positionText(height: Int) -> String? {
        guard state.rows.count > height, height > 0 else { return nil }
        let first = min(max(0, firstRow), state.rows.count)
        let last = min(state.rows.count, first + height)
        return "\(first + 1)-\(last) of \(state.rows.count)"
    }

    /// A column's heading, marked when the rows are sorted by it: ▲ ascending (symbols A to Z, or
    /// reversed prices), ▼ descending (largest first, or reversed symbols), on the side away from the
    /// column's neighbour so the heading stays aligned. `^` and `v` without UTF-8.
    private func heading(of column: ColumnLayout.Column) -> String {
        let ascending = unicode ? Self.ascendingMark : Self.asciiAscendingMark
        let descending = unicode ? Self.descendingMark : Self.asciiDescendingMark
        let (normal, reversed) = state.sortReversed ? (descending, ascending) : (ascending, descending)
        switch (column, state.sort) {
        case (.symbol, .symbol): return column.heading + normal
        case (.changePercent, .changePercent), (.last, .last): return reversed + column.heading
        case (.broker, _) where state.rows.mode == .perSymbol: return Self.sourceHeading
        default: return column.heading
        }
    }

    static let ascendingMark = "▲"
    static let descendingMark = "▼"
    static let asciiAscendingMark = "^"
    static let asciiDescendingMark = "v"
    /// The broker column's heading in the per-symbol view: the broker whose last the row shows.
    static let sourceHeading = "source"
    /// After a per-broker row's bid or ask when it is the best across brokers: seen without color too.
    static let bestMark: UInt32 = 0x2A  // "*"
    /// In the left margin of a per-broker row whose broker looks wrong (an outlier, or stale while others
    /// are live), in place of the stale mark.
    static let flagMark: Character = "!"

    private func drawEmptyState(into buffer: inout ScreenBuffer, rows: Range<Int>) {
        guard let row = rows.first.map({ $0 + max(0, rows.count - 1) / 2 }) else { return }
        var text = StyledText("No symbols — press ", style: palette.muted)
        text.append("a", style: palette.hintKey)
        text.append(" to add", style: palette.muted)
        let shown = text.truncated(toWidth: buffer.size.columns - 2)
        shown.draw(into: &buffer, column: max(1, (buffer.size.columns - shown.width) / 2), row: row)
    }

    private func drawRow(
        _ offset: Int, texts: FormattedRows, scalars: UnsafeBufferPointer<UInt32>, look: RowLook, layout: ColumnLayout,
        numeric: [ColumnLayout.Placement], sparkline sparklinePlacement: ColumnLayout.Placement?, sparklineCells: UnsafeBufferPointer<UInt32>?,
        into buffer: inout ScreenBuffer, row: Int
    ) {
        for placement in layout.placements {
            switch placement.column {
            case .symbol:
                let style = look.isAlerted ? CellCode.bits(palette.alertFired) : CellCode.bold
                if look.isAlerted { buffer.fill(row: row, from: placement.x, to: placement.end, style: palette.alertFired) }
                drawTruncated(scalars[texts.symbol(offset)], in: placement.x, width: placement.width, style: style, into: &buffer, row: row)
            case .broker:
                buffer.write(scalars: CollectionOfOne(texts.glyph(offset)), column: placement.x, row: row, style: look.brand)
                if layout.brokerLabel == .glyphAndName {
                    drawTruncated(scalars[texts.brokerName(offset)], in: placement.x + 2, width: placement.width - 2, style: 0, into: &buffer, row: row)
                }
            default:
                continue
            }
        }

        if let error = texts.error(offset), let start = numeric.first?.x {
            let cells = TerminalText.truncatedCells(error, toWidth: buffer.size.columns - 1 - start)
            buffer.write(cells: cells, column: start, row: row, style: look.error)
        } else {
            for placement in numeric {
                drawValue(texts.number(placement.column, offset), in: placement, texts: texts, offset: offset, look: look, into: &buffer, row: row)
            }
            if let placement = sparklinePlacement, let cells = sparklineCells {
                // Drawn by `WatchlistTableCache.sparkline` (`Sparkline.draw`), in the row's trend style.
                buffer.write(scalars: cells, column: placement.x, row: row, style: look.change)
            }
        }

        // A flag takes the margin from the stale mark: the row's dimming still says it is stale.
        if look.flag != nil {
            buffer.write(cells: [Self.flagMark], column: 0, row: row, style: palette.flagged)
        }
        if look.isStale {
            buffer.add(flags: CellCode.dim, row: row)
            // Dim alone is lost without color support or in a copied screen: the margin says it too.
            if look.flag == nil { buffer.write(cells: [Self.staleMark], column: 0, row: row, style: palette.muted) }
        }
        if look.isAlerted {
            // Color alone is lost on a monochrome terminal or in a copied screen: the margin says it too.
            buffer.write(cells: [Self.alertMark], column: 0, row: row, style: palette.alertFired)
        }
        if look.isSelected {
            buffer.toggle(flags: CellCode.reverse, row: row)
        }
    }

    private func drawValue(
        _ value: FormattedNumber?, in placement: ColumnLayout.Placement, texts: FormattedRows, offset: Int, look: RowLook,
        into buffer: inout ScreenBuffer, row: Int
    ) {
        // The per-symbol view's best bid and ask end two cells early: the glyph of whose they are follows.
        var placement = placement
        let brandGlyph: UInt32
        switch placement.column {
        case .bid: brandGlyph = texts.bidGlyph(offset)
        case .ask: brandGlyph = texts.askGlyph(offset)
        default: brandGlyph = 0
        }
        if brandGlyph != 0, placement.width > 2 {
            buffer.write(scalars: CollectionOfOne(brandGlyph), column: placement.end - 1, row: row, style: placement.column == .bid ? look.bidBrand : look.askBrand)
            placement.width -= 2
        }
        guard let value else {
            let missing = CollectionOfOne(QuoteFormatting.missingScalar)
            buffer.write(scalars: missing, column: placement.end - missing.count, row: row, style: CellCode.bits(palette.muted))
            return
        }
        let style: UInt64
        switch placement.column {
        case .last:
            if let flash = look.flash {
                buffer.fill(row: row, from: placement.x, to: placement.end, style: flash)
                style = CellCode.bits(flash)
            } else {
                style = look.flag == nil ? 0 : CellCode.bits(palette.flagged)
            }
        case .change: style = look.change
        case .changePercent: style = look.changePercent
        case .bid where look.isBestBid, .ask where look.isBestAsk:
            style = CellCode.bits(palette.best)
            // Color alone is lost on a monochrome terminal or in a copied screen: a mark in the gap says it.
            buffer.write(scalars: CollectionOfOne(Self.bestMark), column: placement.end, row: row, style: style)
        default: style = 0
        }
        // Never cut a number: a clipped price is a wrong price.
        if value.width <= placement.width {
            buffer.write(value, endingAt: placement.end, row: row, style: style)
        } else {
            let hashes = repeatElement(UInt32(0x23), count: placement.width)  // "#"
            buffer.write(scalars: hashes, column: placement.end - hashes.count, row: row, style: style)
        }
    }

    /// `cells` in at most `width` cells, ending in "…" when cut.
    private func drawTruncated(
        _ cells: Slice<UnsafeBufferPointer<UInt32>>, in column: Int, width: Int, style: UInt64, into buffer: inout ScreenBuffer, row: Int
    ) {
        guard cells.count > width else {
            buffer.write(scalars: cells, column: column, row: row, style: style)
            return
        }
        guard width > 0 else { return }
        let x = buffer.write(scalars: cells.prefix(width - 1), column: column, row: row, style: style)
        buffer.write(scalars: CollectionOfOne(TerminalText.ellipsis.unicodeScalars.first!.value), column: x, row: row, style: style)
    }

    private func isFlashing(since changedAt: Date?) -> Bool {
        guard let changedAt else { return false }
        return now.timeIntervalSince(changedAt) < state.highlightFor
    }

    /// In the left margin of a row whose alert fired, until the alert log is opened (see the help overlay).
    static let alertMark: Character = "!"

    /// In the left margin of a row whose last quote is older than `staleAfter` (see the help overlay).
    static let staleMark: Character = "~"

    private func isStale(since receivedAt: Date?) -> Bool {
        guard let receivedAt else { return false }
        return now.timeIntervalSince(receivedAt) > state.staleAfter
    }

    /// A price from the last session while the market is closed: its last word, not a late one.
    private func isClosingPrice(_ slot: UnsafePointer<WatchlistRows.Slot>, _ row: UnsafePointer<QuoteEntry>) -> Bool {
        guard let market, let timestamp = row.pointee.quote?.timestamp else { return false }
        return market.isClosingPrice(of: slot.pointee.key.symbol, at: timestamp)
    }

    private func isReconnecting(_ brandID: String) -> Bool {
        switch state.brokers.first(where: { $0.branding.id == brandID })?.state {
        case .connecting, .reconnecting: true
        default: false
        }
    }
}
