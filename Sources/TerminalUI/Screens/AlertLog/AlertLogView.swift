import Domain
import Foundation
import Interactors
import TerminalKit

/// The alert log (`L`): what fired this run, newest first (time, symbol, broker, condition, price), then
/// the alerts that are set, the selected one in reverse video, each with its broker, whether it rearms
/// and where it stands.
struct AlertLogView {
    let screen: AlertLogScreen
    let alerts: [Alert]
    let log: [AlertFiring]
    let brokers: [ServiceBranding]
    let timeZone: TimeZone
    let palette: Palette

    func draw(into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        // Border, two headings and the gap between the sections; the set alerts keep at least 3 rows.
        let room = area.count - 2 - 3
        let setRows = max(1, alerts.count)
        let firedRoom = max(1, min(max(1, log.count), room - min(setRows, max(3, room / 2))))
        var lines: [StyledText] = [StyledText("Fired this run, newest first", style: palette.heading)]
        if log.isEmpty {
            lines.append(StyledText("nothing yet", style: palette.muted))
        }
        let shownFired = log.reversed().prefix(log.count > firedRoom ? firedRoom - 1 : firedRoom)
        // Columns as wide as their widest entry, so a narrow terminal keeps the prices in view.
        let symbolWidth = widest((log.map(\.symbol) + alerts.map(\.symbol)).map(TerminalText.sanitize))
        let conditionWidth = widest((log.map(\.alert) + alerts).map(\.condition.summary))
        let brokerWidth = widest(log.map { brokerName($0.brokerID) } + alerts.map { scopeName($0.scope) })
        for firing in shownFired {
            var line = StyledText(HeaderBar.clock(firing.at, timeZone: timeZone), style: palette.muted)
            line.append("  ")
            line.append(padded(TerminalText.sanitize(firing.symbol), symbolWidth), style: palette.overlayTitle)
            line.append("  ")
            line.append(padded(brokerName(firing.brokerID), brokerWidth))
            line.append("  ")
            line.append(padded(firing.alert.condition.summary, conditionWidth))
            line.append("  ")
            line.append(QuoteFormatting.price(firing.price), style: palette.overlayTitle)
            lines.append(line)
        }
        if log.count > shownFired.count {
            lines.append(StyledText("… \(log.count - shownFired.count) earlier", style: palette.muted))
        }
        lines.append(StyledText())
        var heading = StyledText("Set alerts", style: palette.heading)
        heading.append("  j k select · d deletes", style: palette.muted)
        lines.append(heading)
        if alerts.isEmpty {
            lines.append(StyledText("none: ! on a row sets one", style: palette.muted))
        }
        let selected = screen.selectedIndex(in: alerts)
        let idWidth = widest(alerts.map { "#\($0.id)" })
        for (index, alert) in alerts.enumerated() {
            let parts = [
                padded("#\(alert.id)", idWidth), padded(TerminalText.sanitize(alert.symbol), symbolWidth),
                padded(alert.condition.summary, conditionWidth), padded(scopeName(alert.scope), brokerWidth),
                padded(alert.rearm == .whenCleared ? "rearms" : "once", 6), standing(alert),
            ]
            guard index != selected else {
                lines.append(StyledText("▶ " + parts.joined(separator: "  "), style: palette.selectedList))
                continue
            }
            var line = StyledText("  ")
            line.append(parts[0], style: palette.muted)
            line.append("  ")
            line.append(parts[1], style: palette.overlayTitle)
            for part in parts[2...4] {
                line.append("  ")
                line.append(part)
            }
            line.append("  ")
            line.append(parts[5], style: alert.isArmed ? palette.plain : palette.alertFired)
            lines.append(line)
        }
        OverlayBox(title: "Alerts", closingKey: "L", palette: palette).draw(lines, into: &buffer, rows: area)
    }

    private func standing(_ alert: Alert) -> String {
        guard let fired = alert.lastFired else { return "armed" }
        let when = "\(HeaderBar.clock(fired.at, timeZone: timeZone)) at \(QuoteFormatting.price(fired.price))"
        return alert.isArmed ? "armed (fired \(when))" : "fired \(when)"
    }

    private func scopeName(_ scope: AlertBrokerScope) -> String {
        switch scope {
        case .any: "any broker"
        case .broker(let id): brokerName(id)
        }
    }

    private func brokerName(_ id: String) -> String {
        TerminalText.sanitize(brokers.first { $0.id == id }?.name ?? id)
    }

    private func widest(_ texts: [String]) -> Int {
        texts.map(TerminalText.width).max() ?? 0
    }

    private func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - TerminalText.width(text)))
    }
}
