import TerminalKit
import Domain
import Foundation
import Interactors

/// Row 0: the app's name, the DEMO badge, how many symbols, the sort order, the market's state and the
/// clock. When the row is short the clock goes first, then the market's state shortens ("NYSE closed ·
/// opens Mon 09:30 ET" to "closed"), then the sort goes (the sorted column's heading is marked too),
/// then the count, then the market's state. On a terminal too narrow for the scroll position beside the
/// column headings, the position ("13-24 of 40") takes the count's place: it says more.
struct HeaderBar {
    let state: WatchlistViewState
    let now: Date
    let options: RenderOptions
    let palette: Palette
    var position: String? = nil
    /// The US equity market now, when the options name an exchange (`RenderOptions.market`).
    var market: MarketState? = nil

    func draw(into buffer: inout ScreenBuffer, row: Int) {
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
        let tabVariants = state.listNames.count > 1 ? [left + gap + tabs(all: true), left + gap + tabs(all: false)] : [left]
        let candidates: [(left: StyledText, clock: Bool)] = tabVariants.flatMap { left in
            [
                (left + gap + count + gap + sort, true),
                (left + gap + count + gap + sort, false),
                (left + gap + count, false),
                (left + gap + sort, false),
                (left, false),
            ]
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
        } ?? ((left, false), nil)
        chosen.0.left.truncated(toWidth: room).draw(into: &buffer, column: 1, row: row)
        let clockWidth = chosen.0.clock ? clock.width + 3 : 0
        if chosen.0.clock {
            clock.draw(into: &buffer, column: columns - 1 - clock.width, row: row)
        }
        if let label = chosen.1 {
            label.draw(into: &buffer, column: columns - 1 - clockWidth - label.width, row: row)
        }
    }

    /// " Tech  Indexes  Crypto " with the shown list highlighted, or only the shown one, " Tech 2/3 ".
    private func tabs(all: Bool) -> StyledText {
        var text = StyledText()
        for (index, name) in state.listNames.enumerated() where all || index == state.currentList {
            let shown = TerminalText.truncate(TerminalText.sanitize(name), toWidth: 24)
            let label = all ? " \(shown) " : " \(shown) \(index + 1)/\(state.listNames.count) "
            text.append(label, style: index == state.currentList ? palette.activeTab : palette.inactiveTab)
        }
        return text
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
