import Domain
import Foundation
import Interactors
import Stores
import TerminalKit
import Testing
@testable import TerminalUI

/// The table's cache of earlier frames (`WatchlistTableCache`): a frame drawn with it is the frame drawn
/// without it, whatever changed in between, and it redoes only what changed.
@Suite struct WatchlistTableCacheTests {
    typealias F = WatchlistFixture
    typealias Cross = CrossBrokerScreenTests

    /// A frame drawn with the render loop's cache.
    struct Loop {
        var viewport = TableViewport()
        var layout = WatchlistLayout()
        var cache = WatchlistTableCache()

        mutating func render(
            _ state: WatchlistViewState, at now: Date = F.now, columns: Int = 200, rows: Int = 50, options: RenderOptions = F.utc
        ) -> ScreenBuffer {
            WatchlistScreen.render(
                state, size: ScreenSize(columns: columns, rows: rows), now: now, options: options, viewport: &viewport, layout: &layout,
                cache: &cache)
        }
    }

    /// The same frame from a cold cache.
    static func fresh(
        _ state: WatchlistViewState, at now: Date = F.now, columns: Int = 200, rows: Int = 50, options: RenderOptions = F.utc
    ) -> ScreenBuffer {
        var loop = Loop()
        return loop.render(state, at: now, columns: columns, rows: rows, options: options)
    }

    /// `rows` with the row at `index` given a new quote: `change` applied to its quote, received at `at`.
    static func rows(_ rows: [F.Row], changing index: Int, at time: Date = F.now, _ change: (inout CommonQuote) -> Void) -> [F.Row] {
        var rows = rows
        guard var entry = rows[index].entry, var quote = entry.quote else { return rows }
        change(&quote)
        quote.timestamp = time
        entry.quote = quote
        entry.receivedAt = time
        rows[index].entry = entry
        return rows
    }

    static func state(_ rows: [F.Row], mode: WatchlistRowMode = .perBroker, sparklines: [SparklineSeries] = Cross.sparklines) -> WatchlistViewState {
        var state = Cross.state(mode)
        state.rows = WatchlistRows(
            rows, brokerStates: Dictionary(uniqueKeysWithValues: F.liveBrokers.map { ($0.branding.id, $0.state) }),
            sparklines: Array(sparklines.prefix(rows.count)), mode: mode)
        return state
    }

    /// Every kind of change between two frames, one after another through one cache: each frame is the
    /// cold cache's frame, and each change shows on screen (so a cache that missed it would fail).
    @Test func aFrameIsTheSameWithAnyCache() {
        var loop = Loop()
        let base = Self.state(Cross.rows)
        // AAPL at Gamma bids 190.00: the best bid moves from Beta to Gamma.
        let gammaBids = Self.rows(Cross.rows, changing: 2) { $0.bid = exactDecimal("190.00") }
        var outlierWide = Self.state(gammaBids)
        outlierWide.outlierBasisPoints = 500
        var selectionMoved = Self.state(gammaBids)
        selectionMoved.selectedIndex = 4
        let withoutGamma = Cross.rows.filter { $0.branding.id != F.gamma.id }
        let withAMD = gammaBids + [F.row("AMD", F.alpha, last: "140.10", close: "139.00", bid: "140.09", ask: "140.11", volume: 1_000, age: 1)]
        var sparklineOneMore = Cross.sparklines
        sparklineOneMore[0].record(exactDecimal("195.00"), at: F.now)
        var themed = Self.state(gammaBids)
        themed.theme = .light
        // The palette is kept between frames too: a configured color must reach the next one.
        var upInBlue = F.utc
        upInBlue.colorOverrides[.up] = .rgb(RGBColor(red: 0x20, green: 0x60, blue: 0xff))
        var brokerInRed = upInBlue
        brokerInRed.brokerColorOverrides[F.beta.id] = .indexed(9)

        let steps: [(String, WatchlistViewState, Date, Int, RenderOptions)] = [
            ("first frame", base, F.now, 200, F.utc),
            ("a new best bid at Gamma", Self.state(gammaBids), F.now, 200, F.utc),
            ("rows go stale, the sparklines move on a bucket", Self.state(gammaBids), F.now.addingTimeInterval(31), 200, F.utc),
            ("back in time: they are live again", Self.state(gammaBids), F.now, 200, F.utc),
            ("the outlier threshold widened: NVDA at Gamma no longer flagged", outlierWide, F.now, 200, F.utc),
            ("the selection moved", selectionMoved, F.now, 200, F.utc),
            ("a symbol added, the columns as wide", Self.state(withAMD), F.now, 200, F.utc),
            ("a broker removed", Self.state(withoutGamma), F.now, 200, F.utc),
            ("a price in a sparkline", Self.state(withoutGamma, sparklines: sparklineOneMore), F.now, 200, F.utc),
            ("one row per symbol", Self.state(gammaBids, mode: .perSymbol), F.now, 200, F.utc),
            ("narrower", Self.state(gammaBids, mode: .perSymbol), F.now, 120, F.utc),
            ("without color", Self.state(gammaBids, mode: .perSymbol), F.now, 120, F.monochrome),
            ("another theme", themed, F.now, 120, F.utc),
            ("a configured color for prices that rose", themed, F.now, 120, upInBlue),
            ("a configured color for a broker", themed, F.now, 120, brokerInRed),
            ("back to the first", base, F.now, 200, F.utc),
        ]
        var previous: ScreenBuffer?
        for (change, state, now, columns, options) in steps {
            let frame = loop.render(state, at: now, columns: columns, options: options)
            #expect(frame == Self.fresh(state, at: now, columns: columns, options: options), "\(change)")
            if let previous { #expect(frame != previous, "\(change) shows on screen") }
            previous = frame
        }
    }

    /// A symbol added while the columns stay as wide: the rows kept are forgotten (their places moved)
    /// and the frame is drawn whole.
    @Test func aSymbolAddedUnderTheSameColumns() {
        var loop = Loop()
        let amd = F.row("AMD", F.alpha, last: "140.10", close: "139.00", bid: "140.09", ask: "140.11", volume: 1_000, age: 1)
        let before = loop.render(Self.state(Cross.rows))
        let after = Self.state(Cross.rows + [amd])
        let frame = loop.render(after)
        #expect(frame.lines[1] == before.lines[1], "the same columns")
        #expect(frame == Self.fresh(after))
        #expect(frame.lines[2 + Cross.rows.count].contains("AMD"))
    }

    /// The outlier flag follows the configured threshold through the cache: NVDA at Gamma is 163 bp from
    /// the others, flagged at 50 bp, not at 500.
    @Test func theOutlierThresholdReachesACachedFrame() {
        var loop = Loop()
        var state = Self.state(Cross.rows, sparklines: [])
        let nvdaGamma = 10
        #expect(loop.render(state, columns: 120, rows: 35).lines[nvdaGamma].hasPrefix("!"))
        state.outlierBasisPoints = 500
        #expect(!loop.render(state, columns: 120, rows: 35).lines[nvdaGamma].hasPrefix("!"))
        state.outlierBasisPoints = 50
        #expect(loop.render(state, columns: 120, rows: 35).lines[nvdaGamma].hasPrefix("!"))
    }

    /// A symbol is consolidated again only when one of its quotes changed, a source went stale or live,
    /// or the thresholds or the groups did.
    @Test func onlyAChangedSymbolIsConsolidatedAgain() {
        var loop = Loop()
        let symbols = 4
        _ = loop.render(Self.state(Cross.rows))
        #expect(loop.cache.consolidations == symbols)
        _ = loop.render(Self.state(Cross.rows), at: F.now.addingTimeInterval(0.5))
        #expect(loop.cache.consolidations == symbols, "nothing changed but the clock")

        _ = loop.render(Self.state(Self.rows(Cross.rows, changing: 4) { $0.last = exactDecimal("402.20") }))
        #expect(loop.cache.consolidations == symbols + 1, "MSFT at Beta moved")

        // 26 s on: AAPL at Gamma (5 s old) and NVDA at Beta (5 s old) go stale; MSFT's stale source was
        // stale already, and every ZZZZ source too.
        let moved = Self.state(Self.rows(Cross.rows, changing: 4) { $0.last = exactDecimal("402.20") })
        _ = loop.render(moved, at: F.now.addingTimeInterval(26))
        #expect(loop.cache.consolidations == symbols + 3, "only AAPL's and NVDA's live sources changed")

        var wider = moved
        wider.outlierBasisPoints = 500
        _ = loop.render(wider, at: F.now.addingTimeInterval(26))
        #expect(loop.cache.consolidations == 2 * symbols + 3, "a new threshold consolidates every symbol")

        _ = loop.render(Self.state(Cross.rows.filter { $0.branding.id != F.gamma.id }))
        #expect(loop.cache.consolidations == 3 * symbols + 3, "a broker fewer consolidates every symbol")
    }

    /// A long watchlist keeps room for the rows on screen only (issue 18's memory), and a frame after a
    /// scroll, which puts other rows in those places, is still the cold cache's frame.
    @Test func onlyTheRowsOnScreenAreKept() {
        var loop = Loop()
        let rows = (0..<300).map { number in
            F.row(String(format: "S%03d", number), F.alpha, last: "\(100 + number).25", close: "100.00", bid: "\(100 + number).24",
                  ask: "\(100 + number).26", volume: 1_000, age: 1)
        }
        var state = Self.state(rows, sparklines: [])
        for selected in [0, 150, 299, 140, 0] {
            state.selectedIndex = selected
            // The same frame from a cold cache, from where the viewport was (it keeps its scroll).
            var cold = Loop(viewport: loop.viewport)
            let expected = cold.render(state, rows: 30)
            let frame = loop.render(state, rows: 30)
            #expect(frame == expected, "selection at \(selected)")
            #expect(frame.lines.contains { $0.contains(String(format: "S%03d", selected)) }, "row \(selected) on screen")
            #expect(loop.cache.rowSlots > 0 && loop.cache.rowSlots < 30, "room for the rows on screen, not 300")
        }
        let drawn = loop.cache.rowsDrawn
        _ = loop.render(state, rows: 30)
        #expect(loop.cache.rowsDrawn == drawn, "an unchanged frame after the scrolls draws no row")
    }

    /// A new volume on one row redraws that row alone; a frame with nothing changed redraws none.
    @Test func onlyAChangedRowIsDrawnAgain() {
        var loop = Loop()
        _ = loop.render(Self.state(Cross.rows))
        let drawn = loop.cache.rowsDrawn
        #expect(drawn == Cross.rows.count)
        _ = loop.render(Self.state(Cross.rows))
        #expect(loop.cache.rowsDrawn == drawn)
        let newVolume = Self.rows(Cross.rows, changing: 3, at: F.ago(3)) { $0.volume = 18_500_000 }
        _ = loop.render(Self.state(newVolume))
        #expect(loop.cache.rowsDrawn == drawn + 1)
        #expect(loop.render(Self.state(newVolume)).lines[5].contains("18.5M"), "MSFT at Alpha shows its new volume")
    }

    /// A sparkline is drawn again on a new price, when the window moves on a bucket, or at another width
    /// or character set; otherwise it is the one kept.
    @Test func aSparklineIsRedrawnOnlyWhenItsInputsChange() {
        var cache = WatchlistTableCache()
        var series = Cross.sparklines[0]
        func draw(_ series: SparklineSeries, at now: Date = F.now, width: Int = 30, unicode: Bool = true) -> (cells: [UInt32], generation: UInt64) {
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: SparklineSeries.bucketCount) { cells in
                let (written, generation) = cache.sparkline(0, series: series, now: now, width: width, unicode: unicode, into: cells)
                return (Array(cells[0..<written]), generation)
            }
        }
        func expected(_ series: SparklineSeries, at now: Date = F.now, width: Int = 30, unicode: Bool = true) -> [UInt32] {
            Sparkline.text(series.prices(endingAt: now), width: width, unicode: unicode).unicodeScalars.map(\.value)
        }
        let first = draw(series)
        #expect(first.cells == expected(series))
        #expect(draw(series).generation == first.generation, "kept")
        #expect(draw(series, at: F.now.addingTimeInterval(0.5)).generation == first.generation, "the same bucket")

        let bucketLater = F.now.addingTimeInterval(series.bucketSeconds)
        let moved = draw(series, at: bucketLater)
        #expect(moved.generation != first.generation)
        #expect(moved.cells == expected(series, at: bucketLater))

        series.record(exactDecimal("150.00"), at: bucketLater)
        let priced = draw(series, at: bucketLater)
        #expect(priced.generation != moved.generation)
        #expect(priced.cells == expected(series, at: bucketLater))
        #expect(priced.cells != moved.cells, "the new price shows")

        let narrow = draw(series, at: bucketLater, width: 12)
        #expect(narrow.generation != priced.generation && narrow.cells == expected(series, at: bucketLater, width: 12))
        let ascii = draw(series, at: bucketLater, width: 12, unicode: false)
        #expect(ascii.generation != narrow.generation && ascii.cells == expected(series, at: bucketLater, width: 12, unicode: false))

        // `sparklineMinutes` changed: the store's series cover another window.
        var fiveMinutes = SparklineSeries(window: 300)
        for (step, price) in [("150.00", 0), ("151.00", 1), ("149.50", 2)].map({ ($0.1, $0.0) }) {
            fiveMinutes.record(exactDecimal(price), at: bucketLater.addingTimeInterval(Double(step - 2) * fiveMinutes.bucketSeconds))
        }
        let window = draw(fiveMinutes, at: bucketLater, width: 12, unicode: false)
        #expect(window.generation != ascii.generation && window.cells == expected(fiveMinutes, at: bucketLater, width: 12, unicode: false))
    }

    /// The consolidation through the cache is the consolidation worked out afresh, after each change.
    @Test func cachedFiguresAreFreshFigures() {
        var cache = WatchlistTableCache()
        var rows = Cross.rows
        let steps: [(Date, ExactDecimal, (inout [F.Row]) -> Void)] = [
            (F.now, 50, { _ in }),
            (F.now, 50, { $0 = Self.rows($0, changing: 1) { $0.ask = exactDecimal("189.70") } }),
            (F.now.addingTimeInterval(29), 50, { _ in }),
            (F.now.addingTimeInterval(29), 20, { _ in }),
            (F.now, 20, { $0 = Self.rows($0, changing: 8) { $0.last = exactDecimal("131.06") } }),
        ]
        for (now, threshold, change) in steps {
            change(&rows)
            let table = WatchlistRows(rows)
            for group in 0..<table.groups.count {
                let cached = cache.crossBroker(group: group, rows: table, now: now, staleAfter: 30, outlierBasisPoints: threshold, market: nil)
                let fresh = table.crossBroker(group: group, now: now, staleAfter: 30, outlierBasisPoints: threshold)
                #expect(cached.quote == fresh)
                #expect(cached.disagreementBasisPoints == fresh.disagreementBasisPoints)
            }
        }
    }

    /// The kept market state is the calendar's at every instant: across a week's phases and their
    /// boundaries, back in time, and for another calendar.
    @Test func theKeptMarketStateIsTheCalendarsAtEveryInstant() throws {
        var cache = WatchlistTableCache()
        let calendar = NYSECalendar.standard
        // Thursday 2026-11-26 is Thanksgiving (closed), Friday closes early, then a weekend, then a full Monday.
        var instants: [Date] = []
        let start = try #require(Calendar(identifier: .gregorian).date(from: DateComponents(
            timeZone: TimeZone(identifier: "UTC"), year: 2026, month: 11, day: 25, hour: 12)))
        var instant = start
        while instant < start.addingTimeInterval(6 * 86_400) {
            instants.append(instant)
            let state = calendar.state(at: instant)
            instants += [state.nextChange.addingTimeInterval(-0.001), state.nextChange]
            instant = instant.addingTimeInterval(7 * 60)
        }
        instants += [start.addingTimeInterval(86_400 * 2), start]  // and back
        for instant in instants {
            #expect(cache.marketState(calendar, at: instant) == calendar.state(at: instant), "\(instant)")
        }
        let monday = start.addingTimeInterval(5 * 86_400 + 3 * 3_600)  // 2026-11-30 15:00 UTC, 10:00 in New York
        #expect(cache.marketState(calendar, at: monday).phase == .open)
        let closedMonday = NYSECalendar(specialClosures: [CivilDate(2026, 11, 30): "a day of mourning"])
        #expect(cache.marketState(closedMonday, at: monday) == closedMonday.state(at: monday))
        #expect(cache.marketState(closedMonday, at: monday).phase == .closed)
    }
}
