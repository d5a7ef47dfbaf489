import Domain
import Foundation
import Interactors
import Locking
import Stores
import TerminalUI
import TerminalKit

/// Composing and diffing a 1,000-row watchlist, and the bytes a one-row change costs against a repaint.
struct RendererBenchmark: Sendable {
    var runs = 3
    var window: Duration = .milliseconds(700)
    var log: @Sendable (String) -> Void = { _ in }

    static let rowCount = 1_000
    static let now = Date(timeIntervalSince1970: 1_763_900_000)
    static let options = RenderOptions(color: true, timeZone: TimeZone(identifier: "UTC")!)
    /// Every row on screen: the frame the target speaks of.
    static let tall = ScreenSize(columns: 120, rows: rowCount + 4)  // + header, headings, status, footer
    /// A common terminal showing the first rows of the same 1,000.
    static let typical = ScreenSize(columns: 120, rows: 40)

    /// Frames per run of each live case (`LiveWatchlist`): the medians are over these.
    var frames = 400
    /// The cases to run (`cases`); all by default. For profiling one case under callgrind.
    var only: Set<String> = []
    static let cases = ["1000rows", "120x40", "sparklines", "perSymbol", "detail"]

    func run() -> Figures {
        var figures = Figures()
        let before = Self.state()
        let after = Self.stateWithOneRowChanged(before, index: 2)
        for (label, size) in [("1000rows", Self.tall), ("120x40", Self.typical)] where runs(label) {
            #if canImport(Glibc)
            // Bytes are the same on every run: measured once per size.
            log("render \(label), bytes through ncurses in a pty")
            switch CursesBytesBenchmark.measure(size: size) {
            case .success(let counts):
                let name = "render.\(label).curses"
                figures.add("\(name).oneRowChangeBytes", Double(counts.oneRowChange))
                figures.add("\(name).fullRepaintBytes", Double(counts.fullRepaint))
                if counts.fullRepaint > 0 {
                    figures.add("\(name).oneRowChangePercentOfRepaint", 100 * Double(counts.oneRowChange) / Double(counts.fullRepaint))
                }
            case .failure(let error):
                log("render \(label): \(error)")
            }
            #endif
            for run in 1...runs {
                log("render \(label), run \(run)")
                // The plain frame: one row per (symbol, broker), 3 brokers, no sparkline column.
                var live = LiveWatchlist(entries: Self.rowCount, sparklines: false, mode: .perBroker)
                measureFrames(of: &live, size: size, into: &figures, name: "render.\(label)")

                let old = WatchlistScreen.render(before, size: size, now: Self.now, options: Self.options)
                let new = WatchlistScreen.render(after, size: size, now: Self.now, options: Self.options)
                let name = "render.\(label)"
                let change = FrameDiff.runs(from: old, to: new)
                let oneRow = PipeByteCounter.throughPipe(AnsiFrameWriter.update(change))
                let repaint = PipeByteCounter.throughPipe(AnsiFrameWriter.repaint(new))
                figures.add("\(name).oneRowChangeBytes", oneRow.map(Double.init))
                figures.add("\(name).fullRepaintBytes", repaint.map(Double.init))
                if let oneRow, let repaint, repaint > 0 {
                    figures.add("\(name).oneRowChangePercentOfRepaint", 100 * Double(oneRow) / Double(repaint))
                }
                figures.add("\(name).oneRowChangeRuns", Double(change.count))
            }
        }
        // Issue 17: the same 1,000-row frame with a sparkline on every row (ten minutes, every bucket
        // filled), and 1,000 symbol rows of the cross-broker view (3,000 quotes consolidated: best bid and
        // ask, disagreement, freshest last, with sparklines).
        let scenarios: [(String, Int, WatchlistRowMode)] = [
            ("sparklines", Self.rowCount, .perBroker),
            ("perSymbol", Self.rowCount * Self.brokers.count, .perSymbol),
        ]
        for (label, entries, mode) in scenarios where runs(label) {
            for run in 1...runs {
                log("render 1000rows \(label), run \(run)")
                var live = LiveWatchlist(entries: entries, sparklines: true, mode: mode)
                let shown = WatchlistScreen.render(live.state, size: Self.tall, now: live.now, options: Self.options)
                if !shown.lines[1].contains("trend") { log("render 1000rows \(label): no sparkline column at \(Self.tall.columns) columns") }
                measureFrames(of: &live, size: Self.tall, into: &figures, name: "render.1000rows.\(label)")
            }
        }
        // The detail view: three brokers, each with a full 30 minutes of history in its chart.
        let detailBefore = Self.detailState(tick: 0)
        let detailAfter = Self.detailState(tick: 1)
        for run in 1...runs where runs("detail") {
            log("render detail 120x40, run \(run)")
            let compose = medianTime { _ = WatchlistScreen.render(detailAfter, size: Self.typical, now: Self.now, options: Self.options) }
            let old = WatchlistScreen.render(detailBefore, size: Self.typical, now: Self.now, options: Self.options)
            let new = WatchlistScreen.render(detailAfter, size: Self.typical, now: Self.now, options: Self.options)
            let diff = medianTime { _ = FrameDiff.spans(from: old, to: new) }
            figures.add("render.detail.composeMilliseconds", compose * 1e3)
            figures.add("render.detail.diffMilliseconds", diff * 1e3)
            figures.add("render.detail.frameMilliseconds", (compose + diff) * 1e3)
        }
        figures.note("render.bytes", "through ncurses into a pty (c), and an ANSI writer of the FrameDiff runs into a pipe (a)")
        figures.note(
            "render.frames",
            "each frame follows \(LiveWatchlist.changesPerFrame) new quotes and 1/60 s; median of \(frames) frames a run")
        return figures
    }

    private func runs(_ label: String) -> Bool { only.isEmpty || only.contains(label) }

    /// Composes and diffs `frames` frames of `live`, each after `advance()` (new quotes, the clock on),
    /// against the frame before, as the app's render loop does. Adds the medians and the slowest frame
    /// (the one where the sparklines move on a bucket, or rows go stale, shows there).
    private func measureFrames(of live: inout LiveWatchlist, size: ScreenSize, into figures: inout Figures, name: String) {
        // Kept from frame to frame as the app's render loop keeps them.
        var viewport = TableViewport()
        var layout = WatchlistLayout()
        var cache = WatchlistTableCache()
        // The frame before the first measured one: the app has drawn before the feed moves.
        var previous = WatchlistScreen.render(
            live.state, size: size, now: live.now, options: Self.options, viewport: &viewport, layout: &layout, cache: &cache)
        var composeSamples: [Double] = []
        var diffSamples: [Double] = []
        var frameSamples: [Double] = []
        var changedRuns = 0
        for _ in 0..<frames {
            live.advance()
            let start = MonotonicTime.now()
            let frame = Self.composeFrame(live, size: size, viewport: &viewport, layout: &layout, cache: &cache)
            let composed = MonotonicTime.now()
            changedRuns += Self.diffFrames(previous, frame)
            let diffed = MonotonicTime.now()
            composeSamples.append(MonotonicTime.seconds(composed - start))
            diffSamples.append(MonotonicTime.seconds(diffed - composed))
            frameSamples.append(MonotonicTime.seconds(diffed - start))
            previous = frame
        }
        figures.add("\(name).composeMilliseconds", Statistics.median(composeSamples).map { $0 * 1e3 })
        figures.add("\(name).diffMilliseconds", Statistics.median(diffSamples).map { $0 * 1e3 })
        figures.add("\(name).frameMilliseconds", Statistics.median(frameSamples).map { $0 * 1e3 })
        figures.add("\(name).slowestFrameMilliseconds", frameSamples.max().map { $0 * 1e3 })
        figures.add("\(name).changedRunsPerFrame", Double(changedRuns) / Double(max(1, frames)))
    }

    /// The measured work of a frame, apart so that callgrind can count it alone
    /// (`--toggle-collect='*RendererBenchmarkV12composeFrame*'` and `'*RendererBenchmarkV10diffFrames*'`).
    @inline(never)
    static func composeFrame(
        _ live: LiveWatchlist, size: ScreenSize, viewport: inout TableViewport, layout: inout WatchlistLayout, cache: inout WatchlistTableCache
    ) -> ScreenBuffer {
        WatchlistScreen.render(live.state, size: size, now: live.now, options: options, viewport: &viewport, layout: &layout, cache: &cache)
    }

    /// How many runs of cells changed from `previous` to `frame` (their places, as the curses screen
    /// takes them).
    @inline(never)
    static func diffFrames(_ previous: ScreenBuffer, _ frame: ScreenBuffer) -> Int {
        FrameDiff.spans(from: previous, to: frame).count
    }

    /// Seconds per call, median over repeated calls within the window.
    private func medianTime(_ body: () -> Void) -> Double {
        var samples: [Double] = []
        let deadline = MonotonicTime.now() + UInt64(window.wholeNanoseconds)
        body()  // warm caches and lazy statics
        repeat {
            let start = MonotonicTime.now()
            body()
            samples.append(MonotonicTime.seconds(MonotonicTime.now() - start))
        } while MonotonicTime.now() < deadline && samples.count < 2_000
        return Statistics.median(samples) ?? .nan
    }

    // MARK: The detail view

    /// AAPL across the three brokers with 1,800 points each (30 minutes at one a second); `tick` moves
    /// the last price, as a quote would.
    static func detailState(tick: Int) -> WatchlistViewState {
        let entries = brokers.enumerated().map { index, branding in
            let history = (0..<1_800).map { second in
                // A sine wave around 190, to the cent.
                let level = Int64(((190 + sin(Double(second + index * 40) / 60) * 2) * 100).rounded())
                return PricePoint(time: now.addingTimeInterval(Double(second - 1_800)), price: cents(level))
            }
            let last = (history.last?.price ?? 190) + cents(Int64(tick))
            return SymbolDetail.Entry(
                branding: branding,
                quote: CommonQuote(symbol: "AAPL", last: last, timestamp: now, bid: last - cents(1), ask: last + cents(1), volume: 52_000_000),
                state: .live, receivedAt: now, seenRange: 188...192, history: history)
        }
        var state = WatchlistViewState(isDemo: true)
        state.front = .detail(DetailScreen(symbol: "AAPL"))
        state.detail = SymbolDetail(symbol: "AAPL", entries: entries)
        state.brokers = brokers.map { BrokerStatus(branding: $0, state: .live) }
        return state
    }

    // MARK: The watchlist

    static func cents(_ count: Int64) -> ExactDecimal {
        ExactDecimal(units: count * (ExactDecimal.unitsPerOne / 100))
    }

    static let brokers = [
        ServiceBranding(id: "demo-alpha", name: "Alpha Demo", glyph: "α", color: .cyan),
        ServiceBranding(id: "demo-beta", name: "Beta Demo", glyph: "β", color: .magenta),
        ServiceBranding(id: "demo-gamma", name: "Gamma Flaky", glyph: "γ", color: .yellow),
    ]

    /// `entries` quotes, three brokers a symbol; `sparklines`: ten minutes of prices on every row, a
    /// point every 20 s (every bucket of the sparkline filled); `mode`: one row per quote or per symbol.
    static func state(entries: Int = rowCount, sparklines: Bool = false, mode: WatchlistRowMode = .perBroker) -> WatchlistViewState {
        var rows: [(key: QuoteKey, branding: ServiceBranding, entry: QuoteEntry?)] = []
        var series: [SparklineSeries] = []
        for (index, quote) in quotes(entries: entries).enumerated() {
            let branding = brokers[index % brokers.count]
            let last = quote.last
            rows.append((QuoteKey(brandID: branding.id, symbol: quote.symbol), branding, QuoteEntry(quote: quote, receivedAt: quote.timestamp)))
            if sparklines {
                var prices = SparklineSeries(window: 600)
                for step in 0..<30 {
                    prices.record(last + cents(Int64((step * 7 + index) % 11) - 5), at: now.addingTimeInterval(Double(step - 29) * 20))
                }
                series.append(prices)
            }
        }
        return WatchlistViewState(
            rows: WatchlistRows(rows, sparklines: series, mode: mode), selectedIndex: 0, sort: .symbol, front: .watchlist,
            brokers: brokers.map { BrokerStatus(branding: $0, state: .live) }, isDemo: true,
            message: StatusMessage(.info, "Benchmark", at: now), staleAfter: 30, highlightFor: 1)
    }

    /// `entries` quotes, three brokers a symbol (the broker at `index % brokers.count`), up to 19 s old.
    static func quotes(entries: Int) -> [CommonQuote] {
        (0..<entries).map { index in
            let symbol = "T\(String(format: "%03d", index / brokers.count))"
            let close = ExactDecimal(50 + index % 400)
            // Within ±5 % of the close, in steps of 0.05 %: up to four decimals, as the demo's were.
            let last = close * ExactDecimal(units: Int64(2_000 + (index * 37) % 200 - 100) * 50_000)
            return CommonQuote(
                symbol: symbol, last: last, timestamp: now.addingTimeInterval(-Double(index % 20)),
                bid: last - cents(1), ask: last + cents(1), previousClose: close, volume: Int64(1_000 + index * 7_919))
        }
    }

    /// One price tick: the row's last, change and bid/ask move and its price flashes.
    static func stateWithOneRowChanged(_ state: WatchlistViewState, index: Int) -> WatchlistViewState {
        var state = state
        guard var quote = state.rows[index].quote else { return state }
        quote.last += cents(1)
        quote.bid = quote.last - cents(1)
        quote.ask = quote.last + cents(1)
        quote.timestamp = now
        state.rows.modifyEntry(at: index) { entry in
            entry.quote = quote
            entry.receivedAt = now
            entry.lastChangeAt = now
            entry.lastChangeDirection = 1
        }
        return state
    }
}
