import Domain
import Foundation
import Interactors
import Stores

/// A watchlist as the running app holds it between two frames, for the frame benchmarks: the quotes in
/// a `QuoteStore`, the rows read from it as `AppState.rows` reads them. Before each frame (`advance`)
/// the feed moves `changesPerFrame` quotes spread down the list (each also a point in its sparkline),
/// and the clock moves one frame on.
///
/// Why not draw one state again and again: the app never draws a frame with nothing changed, and a
/// frame of an unchanged state would measure the table's caches hitting on every row. Here each frame
/// has 20 rows whose figures, flash, cross-broker consolidation and sparkline must be worked out anew.
struct LiveWatchlist {
    /// Quotes between two frames: 20 at 60 frames a second is 1,200 quotes a second on screen, spread so
    /// that a tall terminal shows all of them and every symbol group is hit in turn.
    static let changesPerFrame = 20
    static let frameInterval = 1.0 / 60
    /// The clock starts 18 s after the quotes' time, 2 s before a sparkline bucket ends: a run of more than
    /// 120 frames has one frame where every row's sparkline moves on a bucket (as once every 20 s in the
    /// app), and the quotes are 18 to 37 s old, so some rows are stale (30 s) and more go stale as it runs.
    static let startAfterQuotes = 18.0

    private(set) var state: WatchlistViewState
    private(set) var now: Date
    private var store: QuoteStore
    private let keys: [QuoteKey]
    private let slots: [WatchlistRows.Slot]
    private let groups: SymbolGroups
    private let mode: WatchlistRowMode
    private let showsSparklines: Bool
    private let start: Date
    private var frame = 0

    /// `entries` quotes (three brokers a symbol) as `RendererBenchmark.state` has them; `sparklines`: ten
    /// minutes of prices on every row, a point every 20 s; `mode`: one row per quote or per symbol.
    init(entries: Int, sparklines: Bool, mode: WatchlistRowMode) {
        let built = RendererBenchmark.state(entries: entries, sparklines: false, mode: mode)
        var store = QuoteStore(sparklineWindow: 600)
        var keys: [QuoteKey] = []
        for (index, quote) in RendererBenchmark.quotes(entries: entries).enumerated() {
            let key = QuoteKey(brandID: RendererBenchmark.brokers[index % RendererBenchmark.brokers.count].id, symbol: quote.symbol)
            keys.append(key)
            if sparklines {
                for step in 0..<30 {
                    var point = quote
                    point.last = quote.last + RendererBenchmark.cents(Int64((step * 7 + index) % 11) - 5)
                    store.record(.success(point), for: key, receivedAt: RendererBenchmark.now.addingTimeInterval(Double(step - 29) * 20))
                }
            }
            store.record(.success(quote), for: key, receivedAt: quote.timestamp)
            precondition(store.place(for: key) == index, "the store places keys in the order they came")
        }
        self.store = store
        self.keys = keys
        self.slots = built.rows.slots
        self.groups = built.rows.groups
        self.mode = mode
        self.showsSparklines = sparklines
        self.start = RendererBenchmark.now.addingTimeInterval(Self.startAfterQuotes)
        self.now = start
        self.state = built
        self.state.rows = rows()
    }

    /// The next frame's state: `changesPerFrame` quotes a cent up or down (alternately, so prices do
    /// not drift), stamped now, and the clock a frame on.
    mutating func advance() {
        frame += 1
        now = start.addingTimeInterval(Double(frame) * Self.frameInterval)
        let count = keys.count
        let spacing = max(1, count / Self.changesPerFrame)
        for change in 0..<Self.changesPerFrame {
            let index = (frame * 7 + change * spacing) % count
            guard var quote = store.latest[index].quote else { continue }
            quote.last += RendererBenchmark.cents((frame + change) % 2 == 0 ? 1 : -1)
            quote.bid = quote.last - RendererBenchmark.cents(1)
            quote.ask = quote.last + RendererBenchmark.cents(1)
            quote.timestamp = now
            store.record(.success(quote), for: keys[index], receivedAt: now)
        }
        state.rows = rows()
    }

    private func rows() -> WatchlistRows {
        WatchlistRows(
            slots: slots, entries: store.latest, groups: groups, sparklines: showsSparklines ? store.sparklines : [], mode: mode)
    }
}
