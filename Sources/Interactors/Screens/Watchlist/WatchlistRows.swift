import Domain
import Stores

/// The table's rows: the display order as keys, and what each row shows read from a snapshot of
/// `QuoteStore.latest` and the brokers' states when the row is drawn. A quote is stored once outside
/// the hub, in the store; a frame builds a `WatchlistRow` only for the rows on screen.
public struct WatchlistRows: RandomAccessCollection, Sendable {
    /// A row's place in the order: which (broker, symbol), and the broker's branding to draw it.
    public struct Slot: Sendable, Hashable {
        public let key: QuoteKey
        public let branding: ServiceBranding

        public init(key: QuoteKey, branding: ServiceBranding) {
            self.key = key
            self.branding = branding
        }
    }

    /// In display order.
    public private(set) var slots: [Slot]
    private var entries: [QuoteKey: QuoteEntry]
    private var brokerStates: [String: BrokerConnectionState]

    public init(
        slots: [Slot] = [], entries: [QuoteKey: QuoteEntry] = [:], brokerStates: [String: BrokerConnectionState] = [:]
    ) {
        self.slots = slots
        self.entries = entries
        self.brokerStates = brokerStates
    }

    /// Rows in this order with these entries (a frame built by hand, as tests and benchmarks do).
    public init(_ rows: [(slot: Slot, entry: QuoteEntry?)], brokerStates: [String: BrokerConnectionState] = [:]) {
        self.slots = rows.map(\.slot)
        self.entries = Dictionary(rows.compactMap { row in row.entry.map { (row.slot.key, $0) } }, uniquingKeysWith: { $1 })
        self.brokerStates = brokerStates
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { slots.count }

    public subscript(index: Int) -> WatchlistRow {
        let slot = slots[index]
        let entry = entries[slot.key]
        return WatchlistRow(
            key: slot.key,
            branding: slot.branding,
            quote: entry?.quote,
            error: Self.rowError(entry: entry, brokerState: brokerStates[slot.key.brandID]),
            lastChangeAt: entry?.lastChangeAt,
            lastChangeDirection: entry?.lastChangeDirection ?? 0,
            receivedAt: entry?.receivedAt)
    }

    /// Changes what the store says of the row at `index` (tests and benchmarks build frames this way).
    public mutating func modifyEntry(at index: Int, _ change: (inout QuoteEntry) -> Void) {
        change(&entries[slots[index].key, default: QuoteEntry()])
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
