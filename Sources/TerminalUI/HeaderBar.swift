import TerminalKit
import Domain
import Foundation
import Interactors

/// Row 0: the app's name, the DEMO badge, how many symbols, the filter, the sort order, the market's
/// state and the clock. When the row is short the clock goes first, then the market's state shortens
/// ("NYSE closed · opens Mon 09:30 ET" to "closed"), then the sort goes (the sorted column's heading is
/// marked too), then the count, then the market's state. On a terminal too narrow for the scroll position beside the
/// column headings, the position ("13-24 of 40") takes the count's place: it says more.
struct HeaderBar {
    let state: WatchlistViewState
    let now: Date
    let options: RenderOptions
    let palette: Palette
    var position: String? = nil
    /// The US equity market now, when the options name an exchange (`RenderOptions.market`).
    var market: MarketState? = nil

    /// Everything the header is drawn from, for `KeptRow`. The time enters by the second (the clock's
    /// and the market label's resolution); the rows only by their symbols, counted in the header.
    struct Key: Equatable, Sendable {
        var columns: Int
        var second: Int64
        var timeZone: TimeZone
        var market: MarketState?
        var palette: Palette
        var position: String?
        var isDemo: Bool
        var isSaved: Bool
        var tradesLive: Bool
        var securityWarning: String?
        /// Compared by reference first: the array is the one the state keeps until a symbol comes or goes.
        var slots: [WatchlistRows.Slot]
        var sort: String
        var filter: String?
        var listNames: [String]
        var currentList: Int
    }

    func key(columns: Int) -> Key {
        Key(
            columns: columns, second: Int64(now.timeIntervalSince1970.rounded(.down)), timeZone: options.timeZone, market: market,
            palette: palette, position: position, isDemo: state.isDemo, isSaved: state.isSaved, tradesLive: state.tradesLive,
            securityWarning: state.securityWarning, slots: state.rows.slots, sort: state.sort.label, filter: state.filter,
            listNames: state.listNames, currentList: state.currentList)
    }

    /// Draws the header, or puts back the one `kept` drew when nothing it shows changed.
    @discardableResult
    func draw(into buffer: inout ScreenBuffer, row: Int, kept: inout KeptRow<Key, [WatchlistLayout.Tab]>) -> [WatchlistLayout.Tab] {
        kept.draw(into: &buffer, row: row, key: key(columns: buffer.size.columns)) { buffer in
            draw(into: &buffer, row: row)
        }
    }

    /// Returns where the lists' tabs went, for clicks.
    @discardableResult
    func draw(into buffer: inout ScreenBuffer, row: Int) -> [WatchlistLayout.Tab] {
        let columns = buffer.size.columns
        var left = StyledText("CommonBroker", style: palette.title)
        if state.isDemo {
            left.append(" ")
            left.append(" DEMO ", style: palette.demoBadge)
        }
        if !state.isSaved {
            // A `--symbols` run: edits last until quit. Said on every frame, so nobody expects them back.
            left.append(" ")
            left.append(" NOT SAVED ", style: palette.unsavedBadge)
        }
        if state.tradesLive {
            // Orders can reach a real account: said on every frame while such a broker is enabled.
            left.append(" ")
            left.append(" LIVE TRADING ", style: palette.securityBadge)
        }
        if let warning = state.securityWarning {
            left.append(" ")
            left.append(" \(TerminalText.sanitize(warning)) ", style: palette.securityBadge)
        }
        var distinct = Set<String>(minimumCapacity: state.rows.count)
        state.rows.slots.withUnsafeBufferPointer { rows in
            // Read in place (a row's copy costs a dozen reference counts); a symbol's rows are often
            // next to each other, and comparing two symbols costs less than hashing one.
            var previous: String?
            for index in rows.indices where rows[index].key.symbol != previous {
                previous = rows[index].key.symbol
                distinct.insert(rows[index].key.symbol)
            }
        }
        let symbols = distinct.count
        let count = StyledText(position.map { "rows \($0)" } ?? (symbols == 1 ? "1 symbol" : "\(symbols) symbols"), style: palette.headerDetail)
        var sort = StyledText("sort: ", style: palette.headerDetail)
        sort.append(state.sort.label, style: .plain)
        let clock = StyledText(Self.clock(now, timeZone: options.timeZone), style: palette.clock)

        let gap = StyledText("   ")
        // With several lists, their tabs follow the badges: all of them, or only the shown one when short.
        let tabVariants: [(left: StyledText, allTabs: Bool?)] = state.listNames.count > 1
            ? [(left + gap + tabs(all: true), true), (left + gap + tabs(all: false), false)] : [(left, nil)]
        let candidates: [(left: StyledText, clock: Bool, allTabs: Bool?)]
        if let filter = filterText {
            // A filter hides rows: it is said before the sort, and kept longer.
            candidates = tabVariants.flatMap { left, allTabs in
                [
                    (left + gap + count + gap + filter + gap + sort, true, allTabs),
                    (left + gap + count + gap + filter + gap + sort, false, allTabs),
                    (left + gap + count + gap + filter, false, allTabs),
                    (left + gap + filter, false, allTabs),
                    (left, false, allTabs),
                ]
            }
        } else {
            candidates = tabVariants.flatMap { left, allTabs in
                [
                    (left + gap + count + gap + sort, true, allTabs),
                    (left + gap + count + gap + sort, false, allTabs),
                    (left + gap + count, false, allTabs),
                    (left + gap + sort, false, allTabs),
                    (left, false, allTabs),
                ]
            }
        }
        let room = columns - 2
        // The market's state sits left of the clock, in full beside it; without the clock it shortens
        // before the sort and the count go, and goes last.
        let markets = market.map { MarketStateLabel(state: $0, now: now, palette: palette).variants } ?? []
        let layouts = candidates.flatMap { candidate in
            markets.enumerated().compactMap { index, label in candidate.clock && index > 0 ? nil : (candidate, Optional(label)) }
        } + candidates.map { ($0, nil as StyledText?) }
        let chosen = layouts.first { candidate, market in
            candidate.left.width + (candidate.clock ? clock.width + 3 : 0) + (market.map { $0.width + 3 } ?? 0) <= room
        } ?? ((left, false, nil), nil)
        chosen.0.left.truncated(toWidth: room).draw(into: &buffer, column: 1, row: row)
        let clockWidth = chosen.0.clock ? clock.width + 3 : 0
        if chosen.0.clock {
            clock.draw(into: &buffer, column: columns - 1 - clock.width, row: row)
        }
        if let label = chosen.1 {
            label.draw(into: &buffer, column: columns - 1 - clockWidth - label.width, row: row)
        }
        guard let allTabs = chosen.0.allTabs else { return [] }
        return tabColumns(all: allTabs, from: 1 + left.width + gap.width, limit: 1 + room)
    }

    /// "filter: aap", the user's text as typed (sanitized), when the list is filtered.
    private var filterText: StyledText? {
        guard let filter = state.filter else { return nil }
        var text = StyledText("filter: ", style: palette.headerDetail)
        text.append(TerminalText.truncate(TerminalText.sanitize(filter), toWidth: 20), style: palette.clock)
        return text
    }

    /// The columns each tab took, as `tabs(all:)` lays them out from `start`, cut at `limit`.
    private func tabColumns(all: Bool, from start: Int, limit: Int) -> [WatchlistLayout.Tab] {
        var x = start
        var result: [WatchlistLayout.Tab] = []
        for (index, label) in tabLabels(all: all) {
            let end = min(limit, x + TerminalText.width(label))
            if x < end { result.append(WatchlistLayout.Tab(columns: x..<end, list: index)) }
            x += TerminalText.width(label)
        }
        return result
    }

    /// " Tech  Indexes  Crypto " with the shown list highlighted, or only the shown one, " Tech 2/3 ".
    private func tabs(all: Bool) -> StyledText {
        var text = StyledText()
        for (index, label) in tabLabels(all: all) {
            text.append(label, style: index == state.currentList ? palette.activeTab : palette.inactiveTab)
        }
        return text
    }

    /// Each tab's list and label, as `tabs(all:)` draws them.
    private func tabLabels(all: Bool) -> [(list: Int, label: String)] {
        state.listNames.enumerated().compactMap { index, name in
            guard all || index == state.currentList else { return nil }
            let shown = TerminalText.truncate(TerminalText.sanitize(name), toWidth: 24)
            return (index, all ? " \(shown) " : " \(shown) \(index + 1)/\(state.listNames.count) ")
        }
    }

    /// HH:mm:ss in `timeZone`, whatever the user's locale. The time of day is the zone's offset plus
    /// seconds since the epoch (which has no leap seconds), so no calendar is needed: building one
    /// cost more than drawing the rest of a frame.
    static func clock(_ date: Date, timeZone: TimeZone) -> String {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date)
        let ofDay = (local % 86_400 + 86_400) % 86_400
        func two(_ value: Int) -> String {
            value < 10 ? "0\(value)" : "\(value)"
        }
        return "\(two(ofDay / 3600)):\(two(ofDay / 60 % 60)):\(two(ofDay % 60))"
    }
}
