import Domain
import Foundation

/// One symbol's quotes across brokers, consolidated: the best bid and the best ask with the broker holding
/// each, the last trade from the freshest source, how far the brokers' last prices disagree, and which
/// brokers look wrong (an outlier price, or stale while others are live). Pure: observations, the time
/// and the thresholds in, figures out. Sources are named by their index in the observations (the app
/// passes them in broker order), so a tie goes to the broker listed first.
///
/// Which prices count: only live sources (a quote younger than `staleAfter`) when any is live, since a
/// stale broker's bid cannot be hit and its last is not the market now; when every source is stale, all of
/// them, so the row still says what was last known.
public struct CrossBrokerQuote: Sendable, Hashable {
    /// What one broker says of the symbol. No strings, so the table reads one per row cheaply.
    public struct Observation: Sendable, Hashable {
        public var last: ExactDecimal?
        public var bid: ExactDecimal?
        public var ask: ExactDecimal?
        /// When the price was made (the quote's timestamp): the freshest source is the latest.
        public var madeAt: Date?
        /// When it arrived (local clock): a quote older than `staleAfter` is stale.
        public var receivedAt: Date?
        /// A closing price while the market is closed (`MarketState.isClosingPrice`): the session's last
        /// word, live however old, as the table does not mark it stale either.
        public var isClosingPrice: Bool

        public init(
            last: ExactDecimal? = nil, bid: ExactDecimal? = nil, ask: ExactDecimal? = nil, madeAt: Date? = nil, receivedAt: Date? = nil,
            isClosingPrice: Bool = false
        ) {
            self.last = last
            self.bid = bid
            self.ask = ask
            self.madeAt = madeAt
            self.receivedAt = receivedAt
            self.isClosingPrice = isClosingPrice
        }

        public init(_ quote: CommonQuote?, receivedAt: Date?) {
            self.init(last: quote?.last, bid: quote?.bid, ask: quote?.ask, madeAt: quote?.timestamp, receivedAt: quote == nil ? nil : receivedAt)
        }
    }

    /// A price and the source (index into the observations) it comes from.
    public struct Pick: Sendable, Hashable {
        public var source: Int
        public var price: ExactDecimal

        public init(source: Int, price: ExactDecimal) {
            self.source = source
            self.price = price
        }
    }

    /// A set of sources by index, as bits: brokers are few (at most `SourceSet.capacity` take part;
    /// observations beyond that are ignored).
    public struct SourceSet: Sendable, Hashable {
        public static let capacity = 64
        public private(set) var bits: UInt64 = 0

        public init() {}

        public init(_ sources: [Int]) {
            for source in sources { insert(source) }
        }

        public func contains(_ source: Int) -> Bool {
            source >= 0 && source < Self.capacity && bits & (1 << UInt64(source)) != 0
        }

        public mutating func insert(_ source: Int) {
            guard source >= 0, source < Self.capacity else { return }
            bits |= 1 << UInt64(source)
        }

        public var isEmpty: Bool { bits == 0 }
        public var count: Int { bits.nonzeroBitCount }
    }

    /// Why a source's row is flagged in the per-broker view.
    public enum Flag: Sendable, Hashable {
        /// Its last is more than the threshold from the median of the other live brokers' lasts.
        case outlier
        /// Its quote is stale while another broker's is live.
        case staleWhileOthersLive
    }

    /// The highest bid; on a tie the first source. Every source at that price is in `bestBidSources`.
    public private(set) var bestBid: Pick?
    public private(set) var bestAsk: Pick?
    public private(set) var bestBidSources = SourceSet()
    public private(set) var bestAskSources = SourceSet()
    /// The last trade of the freshest source: the latest `madeAt`, then the latest `receivedAt`, then the
    /// first source.
    public private(set) var last: Pick?
    /// Highest minus lowest last in basis points of their median (`disagreementBasisPoints(sortedLasts:)`);
    /// nil with fewer than two prices. Worked out when asked: it divides, and the per-broker rows never ask.
    public var disagreementBasisPoints: ExactDecimal? {
        guard lastsCounted >= 2 else { return nil }
        // Lowest, middle (one, or the two of an even count), highest: the same figure from fewer values.
        let values = lastsCounted % 2 == 1 ? 3 : 4
        return withUnsafeTemporaryAllocation(of: ExactDecimal.self, capacity: values) { lasts in
            lasts.initializeElement(at: 0, to: lastsSummary.lowest)
            lasts.initializeElement(at: 1, to: lastsSummary.lowerMiddle)
            if values == 4 { lasts.initializeElement(at: 2, to: lastsSummary.upperMiddle) }
            lasts.initializeElement(at: values - 1, to: lastsSummary.highest)
            defer { lasts.deinitialize() }
            return Self.disagreementBasisPoints(sortedLasts: UnsafeBufferPointer(lasts))
        }
    }
    /// How many lasts count, and what the disagreement needs of them sorted.
    private var lastsCounted = 0
    private var lastsSummary = LastsSummary()

    private struct LastsSummary: Sendable, Hashable {
        var lowest = ExactDecimal.zero
        var lowerMiddle = ExactDecimal.zero
        var upperMiddle = ExactDecimal.zero
        var highest = ExactDecimal.zero
    }
    public private(set) var outliers = SourceSet()
    public private(set) var staleWhileOthersLive = SourceSet()
    /// Sources with a price younger than `staleAfter`.
    public private(set) var live = SourceSet()
    /// How many of the sources that count quote a bid, and an ask: a best among one is no news.
    public private(set) var quotedBids = 0
    public private(set) var quotedAsks = 0

    public func flag(of source: Int) -> Flag? {
        if staleWhileOthersLive.contains(source) { return .staleWhileOthersLive }
        if outliers.contains(source) { return .outlier }
        return nil
    }

    /// Consolidates `observations` (one per broker, in broker order).
    public init(_ observations: [Observation], now: Date, staleAfter: TimeInterval, outlierBasisPoints: ExactDecimal) {
        self.init(count: observations.count, now: now, staleAfter: staleAfter, outlierBasisPoints: outlierBasisPoints) { observations[$0] }
    }

    /// Consolidates `count` observations read through `observation` (the table reads them in place from
    /// the quote store). Allocates nothing on the heap: a 1,000-row frame makes 1,000 of these.
    public init(
        count: Int, now: Date, staleAfter: TimeInterval, outlierBasisPoints: ExactDecimal, observation: (Int) -> Observation
    ) {
        let count = min(count, SourceSet.capacity)
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: Observation.self, capacity: count) { seen in
            var priced = SourceSet()
            for index in 0..<count {
                let next = observation(index)
                seen.initializeElement(at: index, to: next)
                guard next.last != nil else { continue }
                priced.insert(index)
                if Self.isLive(next, now: now, staleAfter: staleAfter) { live.insert(index) }
            }
            let counted = live.isEmpty ? priced : live
            for index in 0..<count where counted.contains(index) {
                let observed = seen[index]
                if let bid = observed.bid {
                    quotedBids += 1
                    if bestBid == nil || bid > bestBid!.price {
                        bestBid = Pick(source: index, price: bid)
                        bestBidSources = SourceSet()
                    }
                    if bid == bestBid!.price { bestBidSources.insert(index) }
                }
                if let ask = observed.ask {
                    quotedAsks += 1
                    if bestAsk == nil || ask < bestAsk!.price {
                        bestAsk = Pick(source: index, price: ask)
                        bestAskSources = SourceSet()
                    }
                    if ask == bestAsk!.price { bestAskSources.insert(index) }
                }
                if let price = observed.last {
                    if let current = last, !Self.isFresher(observed, than: seen[current.source]) { continue }
                    last = Pick(source: index, price: price)
                }
            }
            for index in 0..<count where priced.contains(index) && !live.contains(index) && !live.isEmpty {
                staleWhileOthersLive.insert(index)
            }
            withUnsafeTemporaryAllocation(of: ExactDecimal.self, capacity: count) { lasts in
                var filled = 0
                for index in 0..<count where counted.contains(index) {
                    lasts.initializeElement(at: filled, to: seen[index].last!)
                    filled += 1
                }
                var sorted = UnsafeMutableBufferPointer(rebasing: lasts[0..<filled])
                sorted.sort()
                lastsCounted = filled
                if filled >= 2 {
                    let middle = filled / 2
                    lastsSummary = LastsSummary(
                        lowest: sorted[0], lowerMiddle: sorted[filled % 2 == 1 ? middle : middle - 1], upperMiddle: sorted[middle],
                        highest: sorted[filled - 1])
                }
                // Outliers among live sources against the other live ones (a stale price is flagged as
                // stale, and is no yardstick for a live one).
                if live.count >= 3 {
                    for index in 0..<count where live.contains(index) {
                        if Self.isOutlier(seen[index].last!, among: UnsafeBufferPointer(sorted), threshold: outlierBasisPoints) {
                            outliers.insert(index)
                        }
                    }
                }
                sorted.deinitialize()
            }
            seen.deinitialize()
        }
    }

    /// Whether `observation` counts as live at `now`: it has a price, younger than `staleAfter` or a
    /// closing price. The only way `now` enters the figures, so a cache of them (`WatchlistTableCache`)
    /// holds while the same sources are live.
    public static func isLive(_ observation: Observation, now: Date, staleAfter: TimeInterval) -> Bool {
        guard observation.last != nil else { return false }
        guard !observation.isClosingPrice, let receivedAt = observation.receivedAt else { return true }
        return !(now.timeIntervalSince(receivedAt) > staleAfter)
    }

    private static func isFresher(_ candidate: Observation, than current: Observation) -> Bool {
        switch (candidate.madeAt, current.madeAt) {
        case let (new?, old?) where new != old: return new > old
        case (_?, nil): return true
        case (nil, _?): return false
        default: break
        }
        switch (candidate.receivedAt, current.receivedAt) {
        case let (new?, old?): return new > old
        case (_?, nil): return true
        default: return false
        }
    }

    /// Highest minus lowest of `sortedLasts` (ascending) in basis points of their median, cut toward zero
    /// at 8 decimals (so rounding it for the screen gives the exact quotient's digits, as
    /// `CommonQuote.changePercent`); nil with fewer than two prices or a median of zero or less.
    ///
    /// Of the median rather than the lowest: it is what the brokers agree on, so one broker far off moves
    /// the base little, and the figure reads the same whichever side the odd broker is on. With an even
    /// count the median is the mean of the middle two; dividing by their sum and doubling the factor keeps
    /// it exact.
    public static func disagreementBasisPoints(sortedLasts lasts: some RandomAccessCollection<ExactDecimal>) -> ExactDecimal? {
        guard lasts.count >= 2, let low = lasts.first, let high = lasts.last, let spread = try? high.subtracting(low) else { return nil }
        let middle = lasts.index(lasts.startIndex, offsetBy: lasts.count / 2)
        if lasts.count % 2 == 1 {
            guard lasts[middle].isPositive else { return nil }
            return try? spread.ratio(to: lasts[middle], times: 10_000, rounding: .towardZero)
        }
        guard let sum = try? lasts[lasts.index(before: middle)].adding(lasts[middle]), sum.isPositive else { return nil }
        return try? spread.ratio(to: sum, times: 20_000, rounding: .towardZero)
    }

    /// Whether `price` is more than `threshold` basis points from the median of the OTHER prices in
    /// `sorted` (which holds `price` once). Compared exactly, by cross-multiplying in 128 bits rather than
    /// dividing: |price − m| × 10,000 > threshold × m. Needs two other prices: against one, each of two
    /// brokers would be the other's outlier and the flag would say nothing.
    ///
    /// With an even number of others, both middle prices are medians and the price must be that far from
    /// each of them. Their mean would not do: with three brokers one bad price drags the mean of the two
    /// others halfway towards it, and both good brokers would be flagged with the bad one.
    static func isOutlier(_ price: ExactDecimal, among sorted: UnsafeBufferPointer<ExactDecimal>, threshold: ExactDecimal) -> Bool {
        let others = sorted.count - 1
        guard others >= 2, let own = sorted.firstIndex(of: price) else { return false }
        // The k-th of the others is sorted[k], or sorted[k + 1] at and after the price's own place.
        func other(_ k: Int) -> ExactDecimal { sorted[k < own ? k : k + 1] }
        func isFar(from median: ExactDecimal) -> Bool {
            guard median.isPositive else { return false }
            let deviation = (Int128(price.units) - Int128(median.units)).magnitude
            // threshold is in units of 10⁻⁸ basis points: scale the left side to match.
            return Int128(deviation) * 10_000 * Int128(ExactDecimal.unitsPerOne) > Int128(threshold.units) * Int128(median.units)
        }
        if others % 2 == 1 { return isFar(from: other(others / 2)) }
        return isFar(from: other(others / 2 - 1)) && isFar(from: other(others / 2))
    }
}
