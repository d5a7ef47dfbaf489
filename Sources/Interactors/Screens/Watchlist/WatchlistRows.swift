import Domain
import Foundation
import Stores

/// The table's rows: the display order as slots, and what each row shows read from a snapshot of
/// `QuoteStore.latest` and the brokers' states when the row is drawn. A quote is stored once outside
/// the hub, in the store; the table reads each row's entry in place, by the index its slot holds.
public struct WatchlistRows: RandomAccessCollection, Sendable {
    /// A row's place in the order: which (broker, symbol), and the broker's branding to draw it.
    public struct Slot: Sendable, Hashable {
        public let key: QuoteKey
        public let branding: ServiceBranding
        /// Where the row's entry is in `entries` (`QuoteStore.place(for:)`). In the per-symbol view, the
        /// freshest source's when the rows were ordered (what a sort by price compares).
        public let entry: Int
        /// The row's symbol in `groups` (-1: none), for the cross-broker figures.
        public let group: Int
        /// The row's broker in `groups.brokers` (-1: none, or the per-symbol view's row).
        public let broker: Int

        public init(key: QuoteKey, branding: ServiceBranding, entry: Int, group: Int = -1, broker: Int = -1) {
            self.key = key
            self.branding = branding
            self.entry = entry
            self.group = group
            self.broker = broker
        }
    }

    /// In display order.
    public private(set) var slots: [Slot]
    /// `QuoteStore.latest`: every slot's entry is here.
    private var entries: [QuoteEntry]
    private var brokerStates: [String: BrokerConnectionState]
    /// Each symbol's entries across brokers (`Slot.group` says which).
    public private(set) var groups: SymbolGroups
    /// `QuoteStore.sparklines`: at the same index as `entries`; empty when there are none.
    public private(set) var sparklines: [SparklineSeries]
    /// One row per (symbol, broker), or one per symbol (then each slot stands for its group).
    public private(set) var mode: WatchlistRowMode

    public init(
        slots: [Slot] = [], entries: [QuoteEntry] = [], brokerStates: [String: BrokerConnectionState] = [:],
        groups: SymbolGroups = SymbolGroups(), sparklines: [SparklineSeries] = [], mode: WatchlistRowMode = .perBroker
    ) {
        self.slots = slots
        self.entries = entries
        self.brokerStates = brokerStates
        self.groups = groups
        self.sparklines = sparklines
        self.mode = mode
    }

    /// Rows in this order with these entries (a frame built by hand, as tests and benchmarks do). Brokers
    /// are grouped by symbol in order of appearance; in the per-symbol view each symbol's first row
    /// stands for it. `sparklines` go with the rows at the same index.
    public init(
        _ rows: [(key: QuoteKey, branding: ServiceBranding, entry: QuoteEntry?)], brokerStates: [String: BrokerConnectionState] = [:],
        sparklines: [SparklineSeries] = [], mode: WatchlistRowMode = .perBroker
    ) {
        var brokers: [ServiceBranding] = []
        var symbols: [String] = []
        var groupOfSymbol: [String: Int] = [:]
        for row in rows {
            if !brokers.contains(where: { $0.id == row.branding.id }) { brokers.append(row.branding) }
            if groupOfSymbol[row.key.symbol] == nil {
                groupOfSymbol[row.key.symbol] = symbols.count
                symbols.append(row.key.symbol)
            }
        }
        var flat = [Int](repeating: -1, count: symbols.count * brokers.count)
        for (index, row) in rows.enumerated() {
            let broker = brokers.firstIndex { $0.id == row.branding.id }!
            flat[groupOfSymbol[row.key.symbol]! * brokers.count + broker] = index
        }
        var groups = SymbolGroups(brokers: brokers)
        for group in symbols.indices {
            groups.append(flat[(group * brokers.count)..<((group + 1) * brokers.count)])
        }
        var slots = rows.indices.map { index in
            Slot(
                key: rows[index].key, branding: rows[index].branding, entry: index, group: groupOfSymbol[rows[index].key.symbol]!,
                broker: brokers.firstIndex { $0.id == rows[index].branding.id }!)
        }
        if mode == .perSymbol {
            var seen = Set<Int>()
            slots = slots.filter { seen.insert($0.group).inserted }
        }
        self.init(
            slots: slots, entries: rows.map { $0.entry ?? QuoteEntry() }, brokerStates: brokerStates, groups: groups,
            sparklines: sparklines, mode: mode)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { slots.count }

    public subscript(index: Int) -> WatchlistRow {
        let slot = slots[index]
        let entry = entries[slot.entry]
        return WatchlistRow(
            key: slot.key,
            branding: slot.branding,
            quote: entry.quote,
            error: error(of: entry, brokerID: slot.key.brandID),
            lastChangeAt: entry.lastChangeAt,
            lastChangeDirection: entry.lastChangeDirection,
            receivedAt: entry.receivedAt)
    }

    /// The slots and their entries, read in place: a frame of 1,000 rows copies none of them.
    public func withRows<R>(_ body: (UnsafeBufferPointer<Slot>, UnsafeBufferPointer<QuoteEntry>) -> R) -> R {
        slots.withUnsafeBufferPointer { slots in entries.withUnsafeBufferPointer { entries in body(slots, entries) } }
    }

    /// The cross-broker figures of `group` (`Slot.group`), its entries read in place. With `market`, a
    /// closing price while the market is closed counts as live.
    public func crossBroker(
        group: Int, now: Date, staleAfter: TimeInterval, outlierBasisPoints: ExactDecimal, market: MarketState? = nil
    ) -> CrossBrokerQuote {
        withUnsafeTemporaryAllocation(of: CrossBrokerQuote.Observation.self, capacity: groups.brokers.count) { buffer in
            let count = observations(group: group, market: market, into: buffer)
            defer { UnsafeMutableBufferPointer(rebasing: buffer[0..<count]).deinitialize() }
            return CrossBrokerQuote(count: count, now: now, staleAfter: staleAfter, outlierBasisPoints: outlierBasisPoints) { buffer[$0] }
        }
    }

    /// What each broker of `group` says of its symbol, in broker order: what `crossBroker` consolidates,
    /// and what a cache of its figures is keyed by. Initializes the first elements of `observed` (room
    /// for `groups.brokers.count`), which the caller deinitializes, and returns how many (none outside
    /// the groups). Not generic on purpose: called across modules 1,000 times a frame, a generic body
    /// looked its metadata up at run time on each call.
    public func observations(group: Int, market: MarketState?, into observed: UnsafeMutableBufferPointer<CrossBrokerQuote.Observation>) -> Int {
        let count = group >= 0 && group < groups.count ? Swift.min(groups.brokers.count, observed.count) : 0
        entries.withUnsafeBufferPointer { entries in
            for broker in 0..<count {
                let index = groups.entry(group: group, broker: broker)
                observed.initializeElement(at: broker, to: index >= 0 ? Self.observation(of: entries.baseAddress! + index, market: market) : .init())
            }
        }
        return count
    }

    private static func observation(of entry: UnsafePointer<QuoteEntry>, market: MarketState?) -> CrossBrokerQuote.Observation {
        guard let last = entry.pointee.quote?.last else { return CrossBrokerQuote.Observation() }
        let madeAt = entry.pointee.quote?.timestamp
        var closing = false
        if let market, let madeAt, let symbol = entry.pointee.quote?.symbol { closing = market.isClosingPrice(of: symbol, at: madeAt) }
        return CrossBrokerQuote.Observation(
            last: last, bid: entry.pointee.quote?.bid, ask: entry.pointee.quote?.ask,
            madeAt: madeAt, receivedAt: entry.pointee.receivedAt, isClosingPrice: closing)
    }

    /// The entry index of the broker at `broker` (in `groups.brokers`) in `group`, -1 when none.
    public func entryIndex(group: Int, broker: Int) -> Int {
        guard group >= 0, group < groups.count, broker >= 0, broker < groups.brokers.count else { return -1 }
        return groups.entry(group: group, broker: broker)
    }

    /// What the row of `entry` says instead of a price, if anything.
    public func error(of entry: QuoteEntry, brokerID: String) -> String? {
        Self.rowError(entry: entry, brokerState: brokerStates[brokerID])
    }

    /// Changes what the store says of the row at `index` (tests and benchmarks build frames this way).
    public mutating func modifyEntry(at index: Int, _ change: (inout QuoteEntry) -> Void) {
        change(&entries[slots[index].entry])
    }

    /// What a row says instead of a price. A row that has a price keeps it, whatever fails later: it goes
    /// stale as it ages, and the failure is the footer's and the status line's to tell. A row without one
    /// says its own error, else why its broker is down.
    public static func rowError(entry: QuoteEntry?, brokerState: BrokerConnectionState?) -> String? {
        guard entry?.quote == nil else { return nil }
        if let error = entry?.error { return error.shortReason }
        switch brokerState {
        case .reconnecting(let attempt, _): return "reconnecting \(attempt)…"
        case .retrying(_, let error): return "retrying: \(error.shortReason)"
        case .failed(let reason): return "failed: \(reason)"
        default: return nil
        }
    }
}
