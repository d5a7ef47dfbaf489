import Domain
import Foundation
import Interactors

/// The last row: each broker's connection state on the left, key hints on the right. When the row is
/// short, hints go first (least needed first), then broker names shrink to their glyphs.
struct BrokerFooter {
    let state: WatchlistViewState
    let palette: Palette
    /// Counts a retry down.
    let now: Date

    private struct Hint {
        var key: String
        var label: String
        /// Lower goes first when the row is short.
        var priority: Int
    }

    private static let hints = [
        Hint(key: "a", label: "add", priority: 4),
        Hint(key: "d", label: "delete", priority: 3),
        Hint(key: "u", label: "undo", priority: 1),
        Hint(key: "s", label: "sort", priority: 2),
        Hint(key: "?", label: "help", priority: 6),
        Hint(key: "q", label: "quit", priority: 5),
    ]

    func draw(into buffer: inout ScreenBuffer, row: Int) {
        let room = buffer.size.columns - 2
        var candidates: [(brokers: StyledText, hints: StyledText)] = []
        let hintTexts = (0...Self.hints.count).map(hintText(keeping:))
        for withNames in [true, false] {
            let brokers = brokerText(withNames: withNames)
            for kept in stride(from: Self.hints.count, through: withNames ? 2 : 0, by: -1) {
                candidates.append((brokers, hintTexts[kept]))
            }
        }
        let chosen = candidates.first { candidate in
            let gap = candidate.brokers.isEmpty || candidate.hints.isEmpty ? 0 : 3
            return candidate.brokers.width + gap + candidate.hints.width <= room
        } ?? (brokerText(withNames: false), StyledText())

        chosen.brokers.truncated(toWidth: room).draw(into: &buffer, column: 1, row: row)
        if !chosen.hints.isEmpty {
            chosen.hints.draw(into: &buffer, column: buffer.size.columns - 1 - chosen.hints.width, row: row)
        }
    }

    private func brokerText(withNames: Bool) -> StyledText {
        var text = StyledText()
        for (index, broker) in state.brokers.enumerated() {
            if index > 0 { text.append(withNames ? "   " : "  ") }
            text.append(cells: [WatchlistTable.glyph(of: broker.branding)], style: palette.brand(broker.branding.color))
            if withNames {
                text.append(" ")
                text.append(cells: TerminalText.truncatedCells(TerminalText.sanitize(broker.branding.name), toWidth: 20), style: .plain)
            }
            text.append(" ")
            text.append(Self.describe(broker.state, now: now), style: palette.connection(broker.state))
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

    /// Whole seconds until `deadline`, rounded up so "0s" means the wait is over; never negative.
    static func secondsLeft(until deadline: Date, now: Date) -> Int {
        let left = deadline.timeIntervalSince(now)
        guard left.isFinite, left > 0 else { return 0 }
        return Int(min(left, 86_400).rounded(.up))
    }

    private func hintText(keeping count: Int) -> StyledText {
        let kept = Set(Self.hints.sorted { $0.priority > $1.priority }.prefix(count).map(\.key))
        var text = StyledText()
        for hint in Self.hints where kept.contains(hint.key) {
            if !text.isEmpty { text.append("  ") }
            text.append(hint.key, style: palette.hintKey)
            text.append(" " + hint.label, style: palette.hintLabel)
        }
        return text
    }
}
