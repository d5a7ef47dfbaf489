import Domain
import Foundation
import Interactors
import Stores
import TerminalKit

/// What the watchlist table worked out on earlier frames, so that a frame redoes only what changed: each
/// symbol's cross-broker figures, each row's sparkline, formatted figures and drawn cells. Between two
/// frames the feed moves a few dozen of 1,000 rows; without this, every frame consolidated every symbol
/// across brokers, scaled every sparkline and formatted and drew every row again (issue 17's 1 ms).
///
/// Frame state, as `TableViewport` is: the render loop keeps it beside the viewport and passes it to
/// `WatchlistScreen.render(…, cache:)`; the app state never sees it. Every entry is keyed by the values
/// it was worked out from, compared in full (never by a counter of the store, which two copies of a
/// state could share for different quotes), so a frame drawn with this cache, warm, cold or left by
/// another state, is the frame drawn without it. What a frame pays for an unchanged row is comparing a
/// few dozen words against what formatting, consolidating and drawing it cost.
public struct WatchlistTableCache: Sendable {
    public init() {}

    // MARK: The header and the footer, which every screen draws

    var header = KeptRow<HeaderBar.Key, [WatchlistLayout.Tab]>()
    var footer = KeptRow<BrokerFooter.Key, Bool>()

    // MARK: The palette, which changes with the theme or the config's colors

    /// What `Palette` is made from: rebuilt every frame, it resolved every role's color and searched for
    /// palette entries each time (about 5 % of the render thread's time with a live watchlist).
    private struct PaletteKey: Equatable, Sendable {
        var color: Bool
        var depth: ColorDepth
        var overrides: [ColorRole: ColorSpec]
        var brokerOverrides: [String: ColorSpec]
        var theme: ThemeName
    }

    private var paletteKey: PaletteKey?
    private var keptPalette: Palette?

    /// The palette of `options` and `theme`, made again only when one of them changed.
    mutating func palette(_ options: RenderOptions, theme: ThemeName) -> Palette {
        let key = PaletteKey(
            color: options.color, depth: options.colorDepth, overrides: options.colorOverrides,
            brokerOverrides: options.brokerColorOverrides, theme: theme)
        if let keptPalette, key == paletteKey { return keptPalette }
        let palette = Palette(options, theme: theme)
        (paletteKey, keptPalette) = (key, palette)
        return palette
    }

    // MARK: The market's state, which changes a few times a day

    private var keptMarket: (calendar: NYSECalendar, state: MarketState)?

    /// `calendar.state(at:)`, worked out again only once `now` leaves the phase the last answer
    /// described: a state holds from its `since` until its `nextChange` (working it out took about 9k
    /// instructions a frame, the New York wall clock and the trading days around it).
    mutating func marketState(_ calendar: NYSECalendar, at now: Date) -> MarketState {
        if let keptMarket, keptMarket.state.since <= now, now < keptMarket.state.nextChange, keptMarket.calendar == calendar {
            return keptMarket.state
        }
        let state = calendar.state(at: now)
        keptMarket = (calendar, state)
        return state
    }

    // MARK: The columns and their headings, which change when a width on screen does

    /// What `ColumnLayout.fit` lays the columns out from.
    struct LayoutKey: Equatable, Sendable {
        var demand: [ColumnLayout.Column: Int]
        var width: Int
        var reserved: Int
        var order: [ColumnLayout.Column]
        var perSymbol: Bool
    }

    private var layoutKey: LayoutKey?
    private var keptLayout: ColumnLayout?

    /// The layout for `key`, fitted again only when the key changed.
    mutating func layout(for key: LayoutKey, fit: (LayoutKey) -> ColumnLayout) -> ColumnLayout {
        if let keptLayout, key == layoutKey { return keptLayout }
        let layout = fit(key)
        (layoutKey, keptLayout) = (key, layout)
        return layout
    }

    /// What the headings row is drawn from; it returns the scroll position when no column had room for it.
    struct HeadingsKey: Equatable, Sendable {
        var layout: ColumnLayout
        var position: String?
        var palette: Palette
        var rowCount: Int
        var mode: WatchlistRowMode
        var sort: Interactors.SortOrder
        var sortReversed: Bool
        var unicode: Bool
        var columns: Int
    }

    var headings = KeptRow<HeadingsKey, String?>()

    // MARK: Cross-broker figures, by symbol group

    /// A symbol's consolidation, and its disagreement worked out once (it divides).
    struct CrossFigures: Sendable {
        var quote: CrossBrokerQuote
        var disagreementBasisPoints: ExactDecimal?
    }

    private struct CrossSettings: Equatable {
        var groups: Int
        var brokers: Int
        var staleAfter: TimeInterval
        var outlierBasisPoints: ExactDecimal
    }

    private var crossSettings: CrossSettings?
    /// Per group, what it was consolidated from: `brokers` observations each, flat, and the sources live
    /// then (`CrossBrokerQuote.isLive`, the only way the time enters the figures).
    private var crossObservations: [CrossBrokerQuote.Observation] = []
    private var crossLive: [CrossBrokerQuote.SourceSet] = []
    private var crossFigures: [CrossFigures?] = []
    /// How many symbols were consolidated, in all: what the tests watch to see the cache hold.
    private(set) var consolidations = 0

    /// The cross-broker figures of `group` now, consolidated again only when a broker's quote of the
    /// symbol changed, a source went stale (or live) since, or the thresholds or the groups did.
    mutating func crossBroker(
        group: Int, rows: WatchlistRows, now: Date, staleAfter: TimeInterval, outlierBasisPoints: ExactDecimal, market: MarketState?
    ) -> CrossFigures {
        let settings = CrossSettings(
            groups: rows.groups.count, brokers: rows.groups.brokers.count, staleAfter: staleAfter, outlierBasisPoints: outlierBasisPoints)
        if settings != crossSettings {
            crossSettings = settings
            crossFigures = Array(repeating: nil, count: settings.groups)
            crossLive = Array(repeating: CrossBrokerQuote.SourceSet(), count: settings.groups)
            crossObservations = Array(repeating: CrossBrokerQuote.Observation(), count: settings.groups * settings.brokers)
        }
        return withUnsafeTemporaryAllocation(of: CrossBrokerQuote.Observation.self, capacity: settings.brokers) { buffer in
            let count = rows.observations(group: group, market: market, into: buffer)
            let observed = UnsafeBufferPointer(rebasing: buffer[0..<count])
            defer { UnsafeMutableBufferPointer(rebasing: buffer[0..<count]).deinitialize() }
            guard group >= 0, group < settings.groups, observed.count == settings.brokers else {
                let quote = CrossBrokerQuote(count: observed.count, now: now, staleAfter: staleAfter, outlierBasisPoints: outlierBasisPoints) { observed[$0] }
                return CrossFigures(quote: quote, disagreementBasisPoints: quote.disagreementBasisPoints)
            }
            var live = CrossBrokerQuote.SourceSet()
            for source in observed.indices where CrossBrokerQuote.isLive(observed[source], now: now, staleAfter: staleAfter) {
                live.insert(source)
            }
            let first = group * settings.brokers
            if let figures = crossFigures[group], crossLive[group] == live,
                crossObservations.withUnsafeBufferPointer({ kept in observed.indices.allSatisfy { kept[first + $0] == observed[$0] } })
            {
                return figures
            }
            let quote = CrossBrokerQuote(count: observed.count, now: now, staleAfter: staleAfter, outlierBasisPoints: outlierBasisPoints) { observed[$0] }
            let figures = CrossFigures(quote: quote, disagreementBasisPoints: quote.disagreementBasisPoints)
            consolidations += 1
            crossFigures[group] = figures
            crossLive[group] = live
            for source in observed.indices { crossObservations[first + source] = observed[source] }
            return figures
        }
    }

    // MARK: Sparklines, by index in `WatchlistRows.sparklines`

    private struct SparklineKey: Equatable {
        /// Shares the store's storage until the store records a price: then the comparison is one pointer.
        var series: SparklineSeries
        /// `SparklineSeries.bucketNumber(of:)` of the frame's time: the window moves on with it.
        var end: Int64
        var width: Int
        var unicode: Bool
    }

    private var sparklineKeys: [SparklineKey?] = []
    /// `SparklineSeries.bucketCount` cells per series, of which `sparklineWidths` were drawn.
    private var sparklineCells: [UInt32] = []
    private var sparklineWidths: [Int] = []
    /// Changes whenever a kept sparkline is drawn anew, so a row's kept cells can say which line they show.
    private var sparklineGenerations: [UInt64] = []
    private var nextGeneration: UInt64 = 1

    /// Writes into `cells` (room for `SparklineSeries.bucketCount`) the sparkline of `series` (its index
    /// `index`) `width` cells wide at `now`, drawn again only when the series recorded a price or the
    /// window moved on a bucket. Returns how many cells it wrote, and a number that changes whenever
    /// they do.
    mutating func sparkline(
        _ index: Int, series: SparklineSeries, now: Date, width: Int, unicode: Bool, into cells: UnsafeMutableBufferPointer<UInt32>
    ) -> (written: Int, generation: UInt64) {
        let capacity = SparklineSeries.bucketCount
        if index >= sparklineKeys.count {
            let count = index + 1
            sparklineKeys += repeatElement(nil, count: count - sparklineKeys.count)
            sparklineCells += repeatElement(0, count: count * capacity - sparklineCells.count)
            sparklineWidths += repeatElement(0, count: count - sparklineWidths.count)
            sparklineGenerations += repeatElement(0, count: count - sparklineGenerations.count)
        }
        let range = (index * capacity)..<((index + 1) * capacity)
        let key = SparklineKey(series: series, end: series.bucketNumber(of: now), width: min(max(0, width), capacity), unicode: unicode)
        if sparklineKeys[index] != key {
            let written = series.withBuckets(endingAt: now) { buckets in
                sparklineCells.withUnsafeMutableBufferPointer { kept in
                    Sparkline.draw(buckets, width: key.width, unicode: unicode, into: UnsafeMutableBufferPointer(rebasing: kept[range]))
                }
            }
            sparklineWidths[index] = written
            sparklineKeys[index] = key
            sparklineGenerations[index] = nextGeneration
            nextGeneration += 1
        }
        let written = min(sparklineWidths[index], cells.count)
        sparklineCells.withUnsafeBufferPointer { kept in
            for cell in 0..<written { cells[cell] = kept[range.lowerBound + cell] }
        }
        return (written, sparklineGenerations[index])
    }

    // MARK: Column widths from every row

    /// The rows `slotWidths` were worked out from: holding them keeps their storage, so an unchanged
    /// order compares as one pointer.
    private var scannedSlots: [WatchlistRows.Slot]?
    private var scannedMode: WatchlistRowMode?
    private var scannedBrokers: [ServiceBranding] = []
    private var scannedWidths = (symbol: 0, brokerName: 0)

    /// `WatchlistTable.slotWidths` of `rows` (`scan`), scanned again only when their slots, mode or
    /// brokers changed.
    mutating func slotWidths(of rows: WatchlistRows, scan: () -> (symbol: Int, brokerName: Int)) -> (symbol: Int, brokerName: Int) {
        if scannedSlots == rows.slots, scannedMode == rows.mode, scannedBrokers == rows.groups.brokers { return scannedWidths }
        scannedWidths = scan()
        scannedSlots = rows.slots
        scannedMode = rows.mode
        scannedBrokers = rows.groups.brokers
        return scannedWidths
    }

    // MARK: Rows on screen, by their place on it

    // A row's figures, texts and cells are kept in the slot of its place among the rows on screen, and
    // the slot remembers which row they are (`slotRows`). Held for every row of the watchlist instead,
    // they took 1.7 KB a row whether it was ever on screen or not: 3.4 MB of a 2,000-row watchlist
    // of which 46 rows show (issue 18's RSS). A scroll moves rows to other slots, so the rows that moved
    // are drawn again on that frame: what one cold screenful costs.

    /// What a row's formatted figures (all but the age, which moves with the clock) are worked out from.
    struct FiguresKey: Equatable {
        var last: ExactDecimal?
        var previousClose: ExactDecimal?
        var volume: Int64?
        /// The bid and ask shown: the row's own, or the best across brokers.
        var bid: ExactDecimal?
        var ask: ExactDecimal?
        var disagreementBasisPoints: ExactDecimal?
    }

    /// Everything a drawn row shows but its texts (`noteTexts`), within one frame's layout, palette and
    /// brokers (`FrameKey`). Plain data on purpose: a frame copies and compares 1,000 of these, and a
    /// string among them made each copy a round of reference counting (a third of the frame).
    struct RowKey: Equatable {
        var figures: FiguresKey
        var age: FormattedNumber?
        /// The per-symbol view's best bid and ask brokers, by index in the groups' brokers (-1: none).
        var bidSource: Int
        var askSource: Int
        var sparkline: Int
        var sparklineGeneration: UInt64
        var look: WatchlistTable.RowLook
    }

    /// What every row's drawing depends on beside its own key.
    struct FrameKey: Equatable {
        var layout: ColumnLayout
        var palette: Palette
        var columns: Int
        /// The groups' brokers, whose glyphs mark the per-symbol view's best bid and ask.
        var brokers: [ServiceBranding]
        /// The brokers the rows name, in the order of `noteTexts`'s `brand`.
        var brandings: [ServiceBranding]
    }

    static let figuresPerRow = WatchlistTable.valueColumnCount
    private var rowCount = 0
    /// The first row on screen, whose slot is 0.
    private var firstVisible = 0
    /// Per slot, the row (its index in `WatchlistRows`) whose figures, texts and cells the slot holds; -1
    /// for none.
    private var slotRows: [Int] = []
    private var figuresKeys: [FiguresKey?] = []
    private var figures: [FormattedNumber?] = []
    private var frameKey: FrameKey?
    private var rowKeys: [RowKey?] = []
    /// The texts each kept row was drawn with: compared in place, apart from `RowKey`.
    private var rowSymbols: [String] = []
    private var rowBrands: [Int] = []
    private var rowErrors: [String?] = []
    private var rowCells: [UInt64] = []
    /// How many rows were drawn rather than put back, in all (tests).
    private(set) var rowsDrawn = 0
    /// How many rows the cache has room for: the rows on screen, not the watchlist's (tests).
    var rowSlots: Int { slotRows.count }

    /// Makes room for the rows `visible` of `count`, forgetting every row when the count changes (a symbol
    /// added or removed moves most rows) or the number on screen does.
    mutating func prepareRows(count: Int, visible: Range<Int>) {
        firstVisible = visible.lowerBound
        guard count != rowCount || visible.count != slotRows.count else { return }
        rowCount = count
        let slots = visible.count
        slotRows = Array(repeating: -1, count: slots)
        figuresKeys = Array(repeating: nil, count: slots)
        figures = Array(repeating: nil, count: slots * Self.figuresPerRow)
        rowKeys = Array(repeating: nil, count: slots)
        rowSymbols = Array(repeating: "", count: slots)
        rowBrands = Array(repeating: -1, count: slots)
        rowErrors = Array(repeating: nil, count: slots)
        rowCells = []
        frameKey = nil  // so that `beginDrawing` makes room for the cells
    }

    /// The slot of row `index`, emptied first when it held another row; nil for a row off screen.
    private mutating func slot(of index: Int) -> Int? {
        let slot = index - firstVisible
        guard slot >= 0, slot < slotRows.count else { return nil }
        if slotRows[slot] != index {
            slotRows[slot] = index
            figuresKeys[slot] = nil
            rowKeys[slot] = nil
            rowSymbols[slot] = ""
            rowBrands[slot] = -1
            rowErrors[slot] = nil
        }
        return slot
    }

    /// The texts row `index` shows this frame: its symbol, the broker it names (`brand`: its index in the
    /// frame's `FrameKey.brandings`; the freshest source's in the per-symbol view) and what it says
    /// instead of a price. Cells kept with other texts are forgotten.
    mutating func noteTexts(row index: Int, symbol: String, brand: Int, error: String?) {
        guard let slot = slot(of: index),
            rowSymbols[slot] != symbol || rowBrands[slot] != brand || rowErrors[slot] != error
        else { return }
        rowSymbols[slot] = symbol
        rowBrands[slot] = brand
        rowErrors[slot] = error
        rowKeys[slot] = nil
    }

    /// The formatted figures of row `index` (`figuresPerRow`, the age among them as it was when kept),
    /// formatted again by `format` only when `key` changed.
    mutating func figures<Result>(
        row index: Int, key: FiguresKey, format: (UnsafeMutableBufferPointer<FormattedNumber?>) -> Void,
        _ body: (UnsafeBufferPointer<FormattedNumber?>) -> Result
    ) -> Result {
        guard let slot = slot(of: index) else {
            // Off screen: nothing is kept for it.
            return withUnsafeTemporaryAllocation(of: FormattedNumber?.self, capacity: Self.figuresPerRow) { scratch in
                scratch.initialize(repeating: nil)
                defer { scratch.deinitialize() }
                format(scratch)
                return body(UnsafeBufferPointer(scratch))
            }
        }
        let range = (slot * Self.figuresPerRow)..<((slot + 1) * Self.figuresPerRow)
        if figuresKeys[slot] != key {
            figures.withUnsafeMutableBufferPointer { figures in format(UnsafeMutableBufferPointer(rebasing: figures[range])) }
            figuresKeys[slot] = key
        }
        return figures.withUnsafeBufferPointer { figures in body(UnsafeBufferPointer(rebasing: figures[range])) }
    }

    /// Starts a frame's drawing: rows kept under another layout, palette, width or brokers are forgotten.
    mutating func beginDrawing(_ key: FrameKey) {
        guard key != frameKey else { return }
        frameKey = key
        rowKeys = Array(repeating: nil, count: slotRows.count)
        rowCells = Array(repeating: 0, count: slotRows.count * key.columns)
    }

    /// Draws row `index` at `screenRow`: the cells kept for it when `key` is what they were drawn from,
    /// else `draw`'s, which are kept for the next frame.
    mutating func drawRow(_ index: Int, key: RowKey, at screenRow: Int, into buffer: inout ScreenBuffer, draw: (inout ScreenBuffer) -> Void) {
        guard let frameKey, index < rowCount, frameKey.columns == buffer.size.columns, let slot = slot(of: index) else {
            draw(&buffer)
            return
        }
        let range = (slot * frameKey.columns)..<((slot + 1) * frameKey.columns)
        if rowKeys[slot] == key {
            buffer.setRowCodes(screenRow, to: rowCells[range])
            return
        }
        draw(&buffer)
        rowsDrawn += 1
        if let codes = buffer.rowCodes(screenRow) {
            rowCells.replaceSubrange(range, with: codes)
            rowKeys[slot] = key
        } else {
            rowKeys[slot] = nil
        }
    }
}
