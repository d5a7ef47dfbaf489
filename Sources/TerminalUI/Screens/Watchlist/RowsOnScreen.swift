import Domain
import Foundation
import Interactors

/// What the last frame's table showed, so that quotes for rows off the screen need no frame: with 2,000
/// rows and 46 on screen, most quotes change nothing that can be seen, yet each asked for a frame.
///
/// Made from the view a frame drew and where it drew the table (`WatchlistLayout`); nil where the table
/// is not in front, since a screen in front (the detail view, positions) may show any quote. Symbols,
/// not rows: a row's cross-broker figures read the other brokers' quotes of its symbol. The quotes are
/// those of `AppState.rowsChanged`, which already leaves out whatever else a quote can move (an alert,
/// a broker's state, the order when sorted by price).
public struct RowsOnScreen: Sendable, Equatable {
    /// The symbols of the rows drawn.
    public let symbols: Set<String>
    /// When the first of those rows stops flashing, if one flashes: the frame after that instant draws it
    /// plain, whatever quote asks for it (the next tick would, up to a second later).
    public let flashEnds: Date?
    /// The symbols of the rows drawn, in their order: when the next frame draws the same ones, it takes
    /// `symbols` from this frame instead of hashing every symbol into a set again.
    private let order: [String]

    public init(symbols: Set<String>, flashEnds: Date?) {
        self.init(symbols: symbols, flashEnds: flashEnds, order: [])
    }

    private init(symbols: Set<String>, flashEnds: Date?, order: [String]) {
        self.symbols = symbols
        self.flashEnds = flashEnds
        self.order = order
    }

    /// What the frame showed; `order` only saves work.
    public static func == (lhs: RowsOnScreen, rhs: RowsOnScreen) -> Bool {
        lhs.symbols == rhs.symbols && lhs.flashEnds == rhs.flashEnds
    }

    /// The rows `layout` says the frame drew of `state`, at `now`; nil when no table was in front.
    /// `previous`, what the frame before showed, only saves work.
    public init?(_ state: WatchlistViewState, layout: WatchlistLayout, now: Date, previous: RowsOnScreen? = nil) {
        guard state.front == .watchlist, !layout.tableRows.isEmpty else { return nil }
        let rows = state.rows
        let drawn = min(max(0, layout.firstRow), rows.count)..<min(rows.count, max(0, layout.firstRow) + layout.tableRows.count)
        var order: [String] = []
        order.reserveCapacity(drawn.count)
        var flashEnds: Date?
        let brokers = rows.groups.brokers.count
        let highlightFor = state.highlightFor
        rows.withRows { slots, entries in
            // The slots through a pointer (a copy of one is a dozen reference counts), and the earliest end
            // as a value returned, not a captured variable written from a nested function.
            func flashEnd(_ index: Int) -> Date? {
                guard index >= 0, index < entries.count, let changedAt = entries[index].lastChangeAt else { return nil }
                let end = changedAt.addingTimeInterval(highlightFor)
                return end > now ? end : nil
            }
            var earliest = Date.distantFuture
            for index in drawn {
                let slot = slots.baseAddress! + index
                order.append(slot.pointee.key.symbol)
                if let end = flashEnd(slot.pointee.entry), end < earliest { earliest = end }
                for broker in 0..<brokers {
                    if let end = flashEnd(rows.entryIndex(group: slot.pointee.group, broker: broker)), end < earliest { earliest = end }
                }
            }
            if earliest < .distantFuture { flashEnds = earliest }
        }
        let symbols = previous.flatMap { $0.order == order ? $0.symbols : nil } ?? Set(order)
        self.init(symbols: symbols, flashEnds: flashEnds, order: order)
    }

    /// Whether `update`, which changed only its quotes' rows, needs a frame at `now`: one of its symbols
    /// is on screen, or a row on screen has stopped flashing since.
    public func needsFrame(for update: MarketUpdate, at now: Date) -> Bool {
        if let flashEnds, now >= flashEnds { return true }
        return update.quotes.keys.contains { symbols.contains($0.symbol) }
            || update.failures.keys.contains { symbols.contains($0.symbol) }
    }
}
