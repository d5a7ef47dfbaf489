import Domain
import Foundation
import Stores

/// The watchlist screen's state and every decision about it, as plain values: no tasks, no I/O.
/// `WatchlistInteractor` owns one, performs the effects (persisting, subscribing) and publishes
/// `viewState()`.
public struct WatchlistState: Sendable {
    public let brokers: [ServiceBranding]
    public private(set) var symbols: [String]
    public var quotes = QuoteStore()
    public var statuses: BrokerStatusStore
    public var sort: SortOrder = .symbol
    public var mode: InputMode = .normal
    public var message: StatusMessage?
    public var isDemo: Bool
    public var securityWarning: String?
    public var staleAfter: TimeInterval
    public var highlightFor: TimeInterval
    public var accounts: AccountsPanel?
    /// The selection follows its row when sorting moves it; `selectedIndex` is the fallback when the row goes.
    public private(set) var selectedKey: QuoteKey?
    public private(set) var selectedIndex: Int = 0
    public private(set) var scrollOffset: Int = 0
    public private(set) var visibleRows: Int = 20
    /// Removed symbols with their former position, newest last, for `u`.
    public private(set) var undoStack: [(symbol: String, index: Int)] = []
    /// Rows in display order; rebuilt whenever symbols, quotes or the sort change.
    public private(set) var rows: [WatchlistRow] = []

    public init(brokers: [ServiceBranding], symbols: [String], isDemo: Bool, staleAfter: TimeInterval = 30, highlightFor: TimeInterval = 1) {
        self.brokers = brokers
        self.symbols = symbols
        self.statuses = BrokerStatusStore(brokers: brokers)
        self.isDemo = isDemo
        self.staleAfter = staleAfter
        self.highlightFor = highlightFor
        rebuildRows()
    }

    // MARK: - Data

    public mutating func setSymbols(_ new: [String]) {
        for gone in symbols where !new.contains(gone) { quotes.removeSymbol(gone) }
        symbols = new
        rebuildRows()
    }

    public mutating func apply(_ update: MarketUpdate, receivedAt: Date) {
        let before = statuses
        quotes.apply(update, receivedAt: receivedAt)
        statuses.apply(update)
        announceNewFailures(since: before, in: update)
        rebuildRows()
    }

    /// A broker that has given up says so in full on the status line (the footer has to truncate), once,
    /// e.g. "Tradier: unauthorized, check TRADIER_TOKEN".
    private mutating func announceNewFailures(since before: BrokerStatusStore, in update: MarketUpdate) {
        for broker in brokers {
            guard case .failed(let reason)? = update.brokerStates[broker.id],
                  before.state(for: broker.id) != .failed(reason: reason) else { continue }
            message = StatusMessage(.error, "\(broker.name): \(reason)")
        }
    }

    public mutating func apply(_ fanOut: FanOutResult, receivedAt: Date) {
        for (symbol, result) in fanOut.results where symbols.contains(symbol) {
            let key = QuoteKey(brandID: fanOut.branding.id, symbol: symbol)
            // A snapshot can arrive after the stream already delivered a newer quote; keep the newer one.
            if case .success(let quote) = result, let current = quotes.entry(for: key)?.quote,
               current.timestamp > quote.timestamp {
                continue
            }
            quotes.record(result, for: key, receivedAt: receivedAt)
        }
        rebuildRows()
    }

    /// Records a removal for undo and moves the selection to the row that takes its place.
    public mutating func noteRemoved(_ symbol: String, at index: Int) {
        undoStack.append((symbol, index))
        if undoStack.count > 50 { undoStack.removeFirst() }
        selectedKey = nil
    }

    public mutating func popUndo() -> (symbol: String, index: Int)? {
        undoStack.popLast()
    }

    /// Selects the first row of `symbol` (after adding it, the user sees where it went).
    public mutating func select(symbol: String) {
        guard let index = rows.firstIndex(where: { $0.key.symbol == symbol }) else { return }
        selectedKey = rows[index].key
        selectedIndex = index
        keepSelectionVisible()
    }

    public var selectedRow: WatchlistRow? {
        rows.indices.contains(selectedIndex) ? rows[selectedIndex] : nil
    }

    // MARK: - Navigation

    public mutating func moveSelection(by delta: Int) {
        guard !rows.isEmpty else { return }
        selectedIndex = min(max(0, selectedIndex + delta), rows.count - 1)
        selectedKey = rows[selectedIndex].key
        keepSelectionVisible()
    }

    public mutating func moveSelection(toTop: Bool) {
        moveSelection(by: toTop ? -rows.count : rows.count)
    }

    public mutating func page(down: Bool) {
        moveSelection(by: (down ? 1 : -1) * max(1, visibleRows - 1))
    }

    public mutating func setVisibleRows(_ count: Int) {
        visibleRows = max(1, count)
        keepSelectionVisible()
    }

    public mutating func cycleSort() {
        sort = sort.next
        rebuildRows()
    }

    // MARK: - View

    public func viewState() -> WatchlistViewState {
        WatchlistViewState(
            rows: rows,
            selectedIndex: rows.isEmpty ? nil : selectedIndex,
            scrollOffset: scrollOffset,
            sort: sort,
            mode: mode,
            brokers: statuses.statuses.map {
                BrokerStatus(branding: $0.branding, state: $0.state, skippedFrames: statuses.skippedFrameCount(for: $0.branding.id))
            },
            isDemo: isDemo,
            message: message,
            staleAfter: staleAfter,
            highlightFor: highlightFor,
            accounts: accounts,
            securityWarning: securityWarning
        )
    }

    // MARK: - Rows

    mutating func rebuildRows() {
        var built: [WatchlistRow] = []
        built.reserveCapacity(symbols.count * brokers.count)
        for symbol in symbols {
            for broker in brokers {
                let key = QuoteKey(brandID: broker.id, symbol: symbol)
                let entry = quotes.entry(for: key)
                built.append(WatchlistRow(
                    key: key,
                    branding: broker,
                    quote: entry?.quote,
                    error: Self.rowError(entry: entry, brokerState: statuses.state(for: broker.id)),
                    lastChangeAt: entry?.lastChangeAt,
                    lastChangeDirection: entry?.lastChangeDirection ?? 0,
                    receivedAt: entry?.receivedAt
                ))
            }
        }
        rows = Self.sorted(built, by: sort)
        reselect()
    }

    /// What a row says instead of (or besides) a price. A row-specific error wins; otherwise a broker that is
    /// down explains rows that have no price yet. Rows that have a price keep it (and go stale).
    static func rowError(entry: QuoteEntry?, brokerState: BrokerConnectionState?) -> String? {
        if let error = entry?.error { return error.shortReason }
        guard entry?.quote == nil else { return nil }
        switch brokerState {
        case .reconnecting(let attempt, _): return "reconnecting \(attempt)…"
        case .failed(let reason): return "failed: \(reason)"
        default: return nil
        }
    }

    /// Display order for a sort. Rows without the sorted value go last; ties fall back to symbol, brand id.
    static func sorted(_ rows: [WatchlistRow], by sort: SortOrder) -> [WatchlistRow] {
        func value(_ row: WatchlistRow) -> Double? {
            switch sort {
            case .symbol: nil
            case .changePercent: row.quote?.changePercent
            case .last: row.quote?.last
            }
        }
        guard sort != .symbol else { return rows.sorted { $0.key < $1.key } }
        return rows.sorted { lhs, rhs in
            switch (value(lhs), value(rhs)) {
            case let (l?, r?) where l != r: l > r
            case (_?, nil): true
            case (nil, _?): false
            default: lhs.key < rhs.key
            }
        }
    }

    private mutating func reselect() {
        if let key = selectedKey, let index = rows.firstIndex(where: { $0.key == key }) {
            selectedIndex = index
        } else {
            selectedIndex = rows.isEmpty ? 0 : min(selectedIndex, rows.count - 1)
            selectedKey = rows.isEmpty ? nil : rows[selectedIndex].key
        }
        keepSelectionVisible()
    }

    private mutating func keepSelectionVisible() {
        if selectedIndex < scrollOffset { scrollOffset = selectedIndex }
        if selectedIndex >= scrollOffset + visibleRows { scrollOffset = selectedIndex - visibleRows + 1 }
        scrollOffset = max(0, min(scrollOffset, max(0, rows.count - visibleRows)))
    }
}
