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

    public init(symbols: Set<String>, flashEnds: Date?) {
        self.symbols = symbols
        self.flashEnds = flashEnds
    }

    /// The rows `layout` says the frame drew of `state`, at `now`; nil when no table was in front.
    public init?(_ state: WatchlistViewState, layout: WatchlistLayout, now: Date) {
        guard state.front == .watchlist, !layout.tableRows.isEmpty else { return nil }
        let rows = state.rows
        let drawn = min(max(0, layout.firstRow), rows.count)..<min(rows.count, max(0, layout.firstRow) + layout.tableRows.count)
        var symbols = Set<String>(minimumCapacity: drawn.count)
        var flashEnds: Date?
        let brokers = rows.groups.brokers.count
        rows.withRows { slots, entries in
            func flashing(_ index: Int) {
                guard index >= 0, index < entries.count, let changedAt = entries[index].lastChangeAt else { return }
                let end = changedAt.addingTimeInterval(state.highlightFor)
                if end > now, end < (flashEnds ?? .distantFuture) { flashEnds = end }
            }
            for index in drawn {
                let slot = slots[index]
                symbols.insert(slot.key.symbol)
                flashing(slot.entry)
                for broker in 0..<brokers { flashing(rows.entryIndex(group: slot.group, broker: broker)) }
            }
        }
        self.init(symbols: symbols, flashEnds: flashEnds)
    }

    /// Whether `update`, which changed only its quotes' rows, needs a frame at `now`: one of its symbols
    /// is on screen, or a row on screen has stopped flashing since.
    public func needsFrame(for update: MarketUpdate, at now: Date) -> Bool {
        if let flashEnds, now >= flashEnds { return true }
        return update.quotes.keys.contains { symbols.contains($0.symbol) }
            || update.failures.keys.contains { symbols.contains($0.symbol) }
    }
}
