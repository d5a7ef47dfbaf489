import TerminalKit
import Foundation
import Domain
import Foundation
import Interactors

/// The last row: each broker's connection state on the left, key hints on the right. When the row is
/// short, hints go first (least needed first; `? help` stays, as it leads to every key), then broker
/// names shrink to their first word and only then to their glyphs.
struct BrokerFooter {
    let state: WatchlistViewState
    /// Counts a retry down.
    let now: Date
    let palette: Palette

    private struct Hint {
        var key: String
        var label: String
        /// Lower goes first when the row is short.
        var priority: Int
    }

    /// The table's hints, by `KeyBindings` action name: each shows the action's first key as bound now.
    private static let watchlistActions = [
        (action: "add", label: "add", priority: 6),
        (action: "remove", label: "delete", priority: 4),
        (action: "undo", label: "undo", priority: 1),
        (action: "sort", label: "sort", priority: 3),
        (action: "lists", label: "lists", priority: 5),
        (action: "accounts", label: "accounts", priority: 2),
        (action: "messages", label: "messages", priority: 0),
        (action: "help", label: "help", priority: 9),
        (action: "quit", label: "quit", priority: 8),
    ]

    private var watchlistHints: [Hint] {
        Self.watchlistActions.compactMap { entry in
            state.keys.keys(named: entry.action).first.map { Hint(key: KeyName.display($0), label: entry.label, priority: entry.priority) }
        }
    }

    /// In the lists menu the footer lists what the menu accepts.
    private static let listMenuHints = [
        Hint(key: "Enter", label: "show", priority: 9),
        Hint(key: "n", label: "new", priority: 8),
        Hint(key: "r", label: "rename", priority: 7),
        Hint(key: "d", label: "delete", priority: 6),
        Hint(key: "J K", label: "move", priority: 5),
        Hint(key: "u", label: "undo", priority: 4),
        Hint(key: "Esc", label: "close", priority: 3),
    ]

    /// In the detail view: back to the list.
    private static let detailHints = [
        Hint(key: "Esc", label: "back to the list", priority: 9),
    ]

    private static let positionsHints = [
        Hint(key: "B", label: "buy", priority: 8),
        Hint(key: "S", label: "sell", priority: 7),
        Hint(key: "O", label: "orders", priority: 5),
        Hint(key: "r", label: "refresh", priority: 4),
        Hint(key: "Esc", label: "back", priority: 9),
    ]

    private static let ordersHints = [
        Hint(key: "c", label: "cancel order", priority: 8),
        Hint(key: "P", label: "positions", priority: 5),
        Hint(key: "r", label: "refresh", priority: 4),
        Hint(key: "Esc", label: "back", priority: 9),
    ]

    private static let ticketHints = [
        Hint(key: "Enter", label: "send", priority: 9),
        Hint(key: "Tab", label: "next field", priority: 7),
        Hint(key: "←→", label: "change", priority: 6),
        Hint(key: "Esc", label: "cancel", priority: 8),
    ]

    private static let alertLogHints = [
        Hint(key: "j k", label: "select", priority: 6),
        Hint(key: "d", label: "delete", priority: 8),
        Hint(key: "Esc", label: "back", priority: 9),
    ]

    private static let alertDialogHints = [
        Hint(key: "Enter", label: "set alert", priority: 9),
        Hint(key: "Esc", label: "cancel", priority: 8),
    ]

    /// The keys the screen in front accepts.
    private var hints: [Hint] {
        switch state.front {
        case .positions: Self.positionsHints
        case .orders: Self.ordersHints
        case .ticket: Self.ticketHints
        case .detail: Self.detailHints
        case .listMenu: Self.listMenuHints
        case .alertLog: Self.alertLogHints
        case .alertDialog: Self.alertDialogHints
        default: watchlistHints
        }
    }

    /// How much of each broker's name the footer shows.
    enum NameLength: CaseIterable {
        case full, firstWord, none
    }

    /// Everything the footer is drawn from, for `KeptRow`: the time shows only in a rate limit's
    /// countdown, so that countdown stands for it.
    struct Key: Equatable, Sendable {
        var columns: Int
        var brokers: [BrokerStatus]
        var front: FrontScreen
        var keys: KeyBindings
        var palette: Palette
        var countdowns: [Int]
    }

    func key(columns: Int) -> Key {
        let countdowns = state.brokers.compactMap { broker -> Int? in
            guard case .retrying(let at, .rateLimited) = broker.state else { return nil }
            return Self.secondsLeft(until: at, now: now)
        }
        return Key(columns: columns, brokers: state.brokers, front: state.front, keys: state.keys, palette: palette, countdowns: countdowns)
    }

    /// Draws the footer, or puts back the one `kept` drew when nothing it shows changed.
    func draw(into buffer: inout ScreenBuffer, row: Int, kept: inout KeptRow<Key, Bool>) {
        _ = kept.draw(into: &buffer, row: row, key: key(columns: buffer.size.columns)) { buffer in
            draw(into: &buffer, row: row)
            return true
        }
    }

    func draw(into buffer: inout ScreenBuffer, row: Int) {
        let room = buffer.size.columns - 2
        var candidates: [(brokers: StyledText, hints: StyledText)] = []
        let hints = hints
        let hintTexts = (0...hints.count).map { hintText(hints, keeping: $0) }
        for names in NameLength.allCases {
            let brokers = brokerText(names: names)
            let fewestHints = names == .full ? 3 : names == .firstWord ? 1 : 0
            for kept in stride(from: hints.count, through: fewestHints, by: -1) {
                candidates.append((brokers, hintTexts[kept]))
            }
        }
        let chosen = candidates.first { candidate in
            let gap = candidate.brokers.isEmpty || candidate.hints.isEmpty ? 0 : 3
            return candidate.brokers.width + gap + candidate.hints.width <= room
        } ?? (brokerText(names: .none), StyledText())

        chosen.brokers.truncated(toWidth: room).draw(into: &buffer, column: 1, row: row)
        if !chosen.hints.isEmpty {
            chosen.hints.draw(into: &buffer, column: buffer.size.columns - 1 - chosen.hints.width, row: row)
        }
    }

    private func brokerText(names: NameLength) -> StyledText {
        var text = StyledText()
        for (index, broker) in state.brokers.enumerated() {
            if index > 0 { text.append(names == .full ? "   " : "  ") }
            text.append(cells: [WatchlistTable.glyph(of: broker.branding)], style: palette.brand(broker.branding))
            let name = TerminalText.sanitize(broker.branding.name)
            switch names {
            case .full:
                text.append(" ")
                text.append(cells: TerminalText.truncatedCells(name, toWidth: 20), style: .plain)
            case .firstWord:
                text.append(" ")
                let word = name.split(separator: " ").first.map(String.init) ?? name
                text.append(cells: TerminalText.truncatedCells(word, toWidth: 10), style: .plain)
            case .none:
                break
            }
            text.append(" ")
            text.append(Self.describe(broker.state, now: now), style: palette.connection(broker.state))
            if let route = Self.describe(broker.route, long: names == .full) {
                let lost = if case .busLost = broker.route { true } else { false }
                text.append(" · ", style: .plain)
                text.append(route, style: lost ? palette.connection(.failed(reason: "")) : .plain)
            }
            if broker.skippedFrames > 0 {
                text.append(" · " + Self.describeSkippedFrames(broker.skippedFrames), style: .plain)
            }
        }
        return text
    }

    static func describe(_ state: BrokerConnectionState, now: Date) -> String {
        switch state {
        case .live: "● live"
        case .connecting: "connecting…"
        case .reconnecting(let attempt, _): "reconnecting \(attempt)"
        case .failed(let reason):
            // Long enough for "unauthorized, check APCA_API_KEY_ID": the one thing the user must read.
            "failed: " + TerminalText.truncate(TerminalText.sanitize(reason), toWidth: 44)
        case .polling: "polling"
        case .retrying(let at, .rateLimited): "rate limited, retry in \(secondsLeft(until: at, now: now))s"
        case .retrying(_, let error): "retrying: " + error.shortReason
        }
    }

    /// The bus's part, nil without a bus. `long` names the leader; the short forms keep a narrow footer.
    /// The leader's name came over the network: sanitized and cut like any outside text.
    static func describe(_ route: QuoteRoute, long: Bool) -> String? {
        switch route {
        case .direct: nil
        case .leader: "leader"
        case .follower(let leader?):
            long ? "via bus (leader: \(TerminalText.truncate(TerminalText.sanitize(leader), toWidth: 32)))" : "via bus"
        case .follower(nil): long ? "via bus (no leader)" : "via bus"
        case .directWithoutBus: long ? "direct, bus unreachable" : "direct"
        case .busLost: long ? "bus lost, not live" : "bus lost"
        }
    }

    /// "3 bad frames": frames the broker sent that could not be decoded and were skipped.
    static func describeSkippedFrames(_ count: Int) -> String {
        count == 1 ? "1 bad frame" : "\(count) bad frames"
    }

    /// Whole seconds until `deadline`, rounded up so "0s" means the wait is over; never negative.
    static func secondsLeft(until deadline: Date, now: Date) -> Int {
        let left = deadline.timeIntervalSince(now)
        guard left.isFinite, left > 0 else { return 0 }
        return Int(min(left, 86_400).rounded(.up))
    }

    private func hintText(_ hints: [Hint], keeping count: Int) -> StyledText {
        let kept = Set(hints.sorted { $0.priority > $1.priority }.prefix(count).map(\.key))
        var text = StyledText()
        for hint in hints where kept.contains(hint.key) {
            if !text.isEmpty { text.append("  ") }
            text.append(hint.key, style: palette.hintKey)
            text.append(" " + hint.label, style: palette.hintLabel)
        }
        return text
    }
}
