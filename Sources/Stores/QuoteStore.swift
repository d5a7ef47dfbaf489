import Domain
import Foundation

/// The one cache of quotes outside the hub: the latest quote and status per (broker, symbol), and a
/// bounded price history per key (`PriceHistory`: one point a second for 30 minutes, at most 1,800
/// points, about 3.8 KB a key that quotes every second). Every screen reads it; only the app state's update writes it.
public struct QuoteStore: Sendable {
    /// What screens read on every frame, one entry per key at the index `place(for:)` gave it, so a row
    /// reads its entry without hashing: a value the renderer may hold while the store moves on, so it
    /// must stay small (copying it on the next write is the price of that snapshot).
    public private(set) var latest: [QuoteEntry] = []
    private var places: [QuoteKey: Int] = [:]
    /// Each entry's price history, at the same index as in `latest`: apart from it, so that a snapshot of
    /// `latest` never shares (and forces a copy of) 4 KB histories, and indexed rather than hashed because
    /// every quote records one.
    private var histories: [PriceHistory] = []
    /// Each entry's sparkline digest (`SparklineSeries`), at the same index as in `latest`: the table reads
    /// one per row on every frame, so it is indexed like the entries rather than hashed like the histories.
    public private(set) var sparklines: [SparklineSeries] = []
    /// The sparklines' window (the config's `sparklineMinutes`).
    public let sparklineWindow: TimeInterval
    /// Benchmarks only: a key's first quote comes with a full history behind it (`HistoryBackfill`).
    public let backfill: HistoryBackfill?

    public init(sparklineWindow: TimeInterval = 10 * 60, backfill: HistoryBackfill? = nil) {
        self.sparklineWindow = sparklineWindow
        self.backfill = backfill
    }

    /// Applies a feed batch. A key with both a failure and a quote in one batch ends with the quote:
    /// the batch is conflated, so order is lost, and a price that arrived is worth more than a stale error.
    public mutating func apply(_ update: MarketUpdate, receivedAt: Date) {
        for (key, error) in update.failures {
            record(.failure(error), for: key, receivedAt: receivedAt)
        }
        for (key, quote) in update.quotes {
            record(.success(quote), for: key, receivedAt: receivedAt)
        }
    }

    /// A quote replaces the entry's quote and clears its error; a failure sets the error and keeps the
    /// last quote. Direction and `lastChangeAt` move only when `last` differs from the previous quote,
    /// so a repeated price does not flash.
    public mutating func record(_ result: Result<CommonQuote, BrokerError>, for key: QuoteKey, receivedAt: Date) {
        // In place: the entry holds the price history, which a copy would duplicate on every quote.
        switch result {
        case .success(let quote):
            let index = place(for: key)
            if let backfill, histories[index].count == 0 {
                fill(key, at: index, with: backfill, before: receivedAt, leadingTo: quote.last)
            }
            Self.record(quote, receivedAt: receivedAt, into: &latest[index])
            histories[index].record(quote.last, at: receivedAt)
            sparklines[index].record(quote.last, at: receivedAt)
        case .failure(let error):
            latest[place(for: key)].error = error
        }
    }

    /// Records the backfill's points through the same paths as live prices, so the history and sparkline
    /// grow, and take memory, exactly as 30 minutes of quotes would have made them.
    private mutating func fill(_ key: QuoteKey, at index: Int, with backfill: HistoryBackfill, before end: Date, leadingTo price: ExactDecimal) {
        for point in backfill.points(before: end, leadingTo: price, seed: HistoryBackfill.seed(for: key)) {
            histories[index].record(point.price, at: point.time)
            sparklines[index].record(point.price, at: point.time)
        }
    }

    private static func record(_ quote: CommonQuote, receivedAt: Date, into entry: inout QuoteEntry) {
        if let previous = entry.quote, previous.last != quote.last {
            entry.lastChangeDirection = quote.last > previous.last ? 1 : -1
            entry.lastChangeAt = receivedAt
        }
        entry.quote = keepingPreviousClose(quote, from: entry.quote)
        entry.error = nil
        entry.receivedAt = receivedAt
    }

    /// Trade and quote events on a stream carry no previous close, while the snapshot the row started
    /// from did. The close is fixed for the day, so a stream quote keeps it and the change columns stay
    /// filled. Volume is not carried: an old day volume next to a new price would be wrong.
    static func keepingPreviousClose(_ quote: CommonQuote, from previous: CommonQuote?) -> CommonQuote {
        guard quote.previousClose == nil, let close = previous?.previousClose else { return quote }
        var merged = quote
        merged.previousClose = close
        return merged
    }

    /// The index of `key`'s entry in `latest`, made (empty) if the key has none yet. Indexes stay valid
    /// until `keepOnly` drops keys.
    public mutating func place(for key: QuoteKey) -> Int {
        if let index = places[key] { return index }
        latest.append(QuoteEntry())
        histories.append(PriceHistory())
        sparklines.append(SparklineSeries(window: sparklineWindow))
        places[key] = latest.count - 1
        return latest.count - 1
    }

    public func entry(for key: QuoteKey) -> QuoteEntry? {
        places[key].map { latest[$0] }
    }

    /// The key's recent prices, for charts.
    public func history(for key: QuoteKey) -> PriceHistory? {
        places[key].map { histories[$0] }.flatMap { $0.count == 0 ? nil : $0 }
    }

    /// Forgets every entry whose symbol is not in `symbols`; the indexes of the rest change.
    public mutating func keepOnly(_ symbols: Set<String>) {
        var kept: [QuoteEntry] = []
        var keptHistories: [PriceHistory] = []
        var keptSparklines: [SparklineSeries] = []
        var keptPlaces: [QuoteKey: Int] = [:]
        for (key, index) in places where symbols.contains(key.symbol) {
            keptPlaces[key] = kept.count
            kept.append(latest[index])
            keptHistories.append(histories[index])
            keptSparklines.append(sparklines[index])
        }
        (latest, histories, sparklines, places) = (kept, keptHistories, keptSparklines, keptPlaces)
    }

    public var count: Int { places.count }
}
