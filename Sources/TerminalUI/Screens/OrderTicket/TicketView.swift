import Domain
import Interactors
import TerminalKit

/// The order ticket (`B` / `S`), as a box over the screen: its fields with the focused one marked, the
/// estimate under them, what is wrong if Enter was refused, and the keys.
struct TicketView {
    let ticket: OrderTicket
    let preview: TicketPreview?
    let palette: Palette

    func draw(into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        var lines: [StyledText] = []
        for field in ticket.fields {
            lines.append(fieldLine(field))
        }
        lines.append(StyledText())
        lines += previewLines()
        if let problem = ticket.problem {
            // Wrapped, never cut: the reason is what the user has to act on.
            lines.append(StyledText())
            let width = max(20, min(60, buffer.size.columns - 8))
            for line in TerminalText.wrap(TerminalText.cells(TerminalText.sanitize(problem.message)), toWidth: width) {
                var text = StyledText()
                text.append(cells: line, style: palette.message(.error))
                lines.append(text)
            }
        }
        lines.append(StyledText())
        switch ticket.step {
        case .editing:
            if ticket.broker.isLive {
                lines.append(StyledText("LIVE: this order goes to a real account", style: palette.securityBadge))
            }
            lines.append(keys([("Enter", "send"), ("Tab ↑↓", "field"), ("←→", "change"), ("Esc", "cancel")]))
        case .confirmingLive(let prompt):
            var line = StyledText("LIVE order: type \(ticket.symbol) and Enter to send: ", style: palette.securityBadge)
            line.append(TerminalText.sanitize(prompt.text) + "▏", style: Style(bold: true))
            lines.append(line)
            if let error = prompt.error { lines.append(StyledText(error, style: palette.message(.error))) }
            lines.append(keys([("Enter", "send live"), ("Esc", "back")]))
        case .sending:
            lines.append(StyledText("Sending to \(TerminalText.sanitize(ticket.broker.branding.name))…", style: Style(bold: true)))
        }
        let side = ticket.side.isBuy ? "Buy" : "Sell"
        OverlayBox(title: "\(side) \(ticket.symbol)", closingKey: "Esc", palette: palette).draw(lines, into: &buffer, rows: area)
    }

    private func fieldLine(_ field: OrderTicket.Field) -> StyledText {
        let focused = field == ticket.focus && ticket.step == .editing
        let (label, value): (String, String) = switch field {
        case .broker: ("Broker", TerminalText.sanitize(ticket.broker.branding.name) + (ticket.broker.isLive ? " (LIVE)" : ""))
        case .side: ("Side", ticket.side.label)
        case .quantity: ("Quantity", ticket.quantity)
        case .type: ("Type", ticket.kind.rawValue)
        case .limit: ("Limit price", ticket.limit)
        case .stop: ("Stop price", ticket.stop)
        case .timeInForce: ("Time in force", ticket.timeInForce == .day ? "day" : "gtc (until cancelled)")
        }
        var line = StyledText(focused ? "▸ " : "  ", style: palette.overlayKey)
        line.append(label.padding(toLength: 15, withPad: " ", startingAt: 0), style: focused ? Style(bold: true) : palette.muted)
        let isWrong = ticket.problem?.field == field
        let valueStyle: Style = isWrong ? palette.message(.error) : (focused ? Style(bold: true, underline: true) : .plain)
        if OrderTicket.isChoice(field) {
            line.append(focused ? "◂ " : "  ", style: palette.overlayKey)
            line.append(value, style: valueStyle)
            if focused { line.append(" ▸", style: palette.overlayKey) }
        } else {
            line.append("  " + value, style: valueStyle)
            if focused { line.append("▏", style: Style(bold: true)) }
        }
        return line
    }

    private func previewLines() -> [StyledText] {
        guard let preview else { return [] }
        var lines: [StyledText] = []
        var price = StyledText("Price now    ", style: palette.muted)
        if let value = preview.price, let source = preview.priceSource {
            price.append(MoneyText.price(value))
            price.append("  (\(source), an estimate)", style: palette.muted)
        } else {
            price.append("no quote yet", style: palette.muted)
        }
        lines.append(price)
        var cost = StyledText(ticket.side.isBuy ? "Est. cost    " : "Est. proceeds", style: palette.muted)
        cost.append(preview.amount.map { " " + MoneyText.format($0) } ?? " —")
        cost.append("   commission ", style: palette.muted)
        cost.append(preview.commission.map { MoneyText.format($0) } ?? "the broker's")
        lines.append(cost)
        if let power = preview.buyingPower {
            var line = StyledText("Buying power ", style: palette.muted)
            line.append(" " + MoneyText.format(power))
            if let after = preview.buyingPowerAfter {
                line.append(" → ", style: palette.muted)
                line.append(MoneyText.format(after), style: after.isNegative ? palette.message(.error) : Style(bold: true))
            }
            lines.append(line)
        }
        return lines
    }

    private func keys(_ pairs: [(String, String)]) -> StyledText {
        var line = StyledText()
        for (key, label) in pairs {
            if !line.isEmpty { line.append("  ") }
            line.append(key, style: palette.overlayKey)
            line.append(" " + label)
        }
        return line
    }
}
