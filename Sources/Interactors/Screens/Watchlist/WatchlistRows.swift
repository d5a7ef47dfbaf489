import Domain
import Stores

/// The table's rows: the display order as slots, and what each row shows read from a snapshot of
/// `QuoteStore.latest` and the brokers' states when the row is drawn. A quote is stored once outside
/// the hub, in the store; the table reads each row's entry in place, by the index its slot holds.
public struct WatchlistRows: RandomAccessCollection, Sendable {
    /// A row's place in the order: which (broker, symbol), and the broker's branding to draw it.
    public struct Slot: Sendable, Hashable {
        public let key: QuoteKey
        public let branding: ServiceBranding
        /// Where the row's entry is in `entries` (`QuoteStore.place(for:)`).
        public let entry: Int

        public init(key: QuoteKey, branding: ServiceBranding, entry: Int) {
            self.key = key
            self.branding = branding
            self.entry = entry
        }
    }

    /// In display order.
    public private(set) var slots: [Slot]
    /// `QuoteStore.latest`: every slot's entry is here.
    private var entries: [QuoteEntry]
    private var brokerStates: [String: BrokerConnectionState]

    public init(
        slots: [Slot] = [], entries: [QuoteEntry] = [], brokerStates: [String: BrokerConnectionState] = [:]
    ) {
        self.slots = slots
        self.entries = entries
        self.brokerStates = brokerStates
    }

    /// Rows in this order with these entries (a frame built by hand, as tests and benchmarks do).
    public init(_ rows: [(key: QuoteKey, branding: ServiceBranding, entry: QuoteEntry?)], brokerStates: [String: BrokerConnectionState] = [:]) {
        self.slots = rows.indices.map { Slot(key: rows[$0].key, branding: rows[$0].branding, entry: $0) }
        self.entries = rows.map { $0.entry ?? QuoteEntry() }
        self.brokerStates = brokerStates
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
