import TerminalKit
import Domain
import Interactors

/// The accounts panel (`A`): a box at the bottom of the table with each broker's accounts, equity,
/// buying power and cash. The table above it shrinks so the selection stays visible.
struct AccountsPanelView {
    let panel: AccountsPanel
    let palette: Palette

    /// Rows the panel takes out of `available` table rows: its lines plus the two borders, never more
    /// than half the table (the watchlist stays the main thing on screen).
    static func height(of panel: AccountsPanel, available: Int) -> Int {
        let wanted = lines(of: panel).count + 2
        return min(wanted, max(0, available / 2))
    }

    private enum Line {
        case account(ServiceBranding, AccountBalance)
        case status(ServiceBranding, String, isError: Bool)
        case note(String)
    }

    private static func lines(of panel: AccountsPanel) -> [Line] {
        guard !panel.entries.isEmpty else {
            return [.note("No configured broker offers accounts (the demo brokers have none).")]
        }
        return panel.entries.flatMap { entry -> [Line] in
            if entry.isLoading { return [.status(entry.branding, "loading…", isError: false)] }
            if let error = entry.error { return [.status(entry.branding, error, isError: true)] }
            if entry.balances.isEmpty { return [.status(entry.branding, "no accounts", isError: false)] }
            return entry.balances.map { .account(entry.branding, $0) }
        }
    }

    func draw(into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        guard area.count >= 3, buffer.size.columns >= 10 else { return }
        let columns = buffer.size.columns
        let inner = columns - 4
        var lines = Self.lines(of: panel)
        if lines.count > area.count - 2 {
            lines = Array(lines.prefix(area.count - 3)) + [.note("… more in a taller terminal")]
        }

        let title = TerminalText.cells(" Accounts ")
        let top: [Character] = ["┌", "─"] + title + Array(repeating: "─", count: max(0, columns - 3 - title.count)) + ["┐"]
        buffer.write(cells: top, column: 0, row: area.lowerBound, style: palette.overlayBorder)
        buffer.write(cells: title, column: 2, row: area.lowerBound, style: palette.overlayTitle)
        let nameWidth = min(20, panel.entries.map { TerminalText.width(TerminalText.sanitize($0.branding.name)) }.max() ?? 0)
        for row in (area.lowerBound + 1)..<(area.upperBound - 1) {
            buffer.write(cells: ["│"] + Array(repeating: " ", count: columns - 2) + ["│"], column: 0, row: row, style: palette.overlayBorder)
            buffer.restyle(row: row, from: 1, to: columns - 1) { $0 = .plain }
        }
        for (offset, line) in lines.enumerated() {
            text(for: line, nameWidth: nameWidth).truncated(toWidth: inner).draw(into: &buffer, column: 2, row: area.lowerBound + 1 + offset)
        }
        let bottom: [Character] = ["└"] + Array(repeating: "─", count: columns - 2) + ["┘"]
        buffer.write(cells: bottom, column: 0, row: area.upperBound - 1, style: palette.overlayBorder)
        var closing = StyledText(" ")
        closing.append("A", style: palette.overlayKey)
        closing.append(" closes ")
        closing.draw(into: &buffer, column: 2, row: area.upperBound - 1)
    }

    private func text(for line: Line, nameWidth: Int) -> StyledText {
        switch line {
        case .note(let note):
            return StyledText(note, style: palette.muted)
        case .status(let branding, let status, let isError):
            var text = brokerLabel(branding, nameWidth: nameWidth)
            text.append(TerminalText.sanitize(status), style: isError ? palette.rowError(transient: false) : palette.muted)
            return text
        case .account(let branding, let balance):
            var text = brokerLabel(branding, nameWidth: nameWidth)
            text.append(TerminalText.sanitize(balance.accountID), style: Style(bold: true))
            for (label, value) in [("equity", balance.equity), ("buying power", balance.buyingPower), ("cash", balance.cash)] {
                text.append("   " + label + " ", style: palette.muted)
                text.append(value.map(QuoteFormatting.money) ?? QuoteFormatting.missing)
            }
            return text
        }
    }

    private func brokerLabel(_ branding: ServiceBranding, nameWidth: Int) -> StyledText {
        var text = StyledText()
        text.append(cells: [WatchlistTable.glyph(of: branding)], style: palette.brand(branding))
        let name = TerminalText.truncate(TerminalText.sanitize(branding.name), toWidth: nameWidth)
        text.append(" " + name + String(repeating: " ", count: max(0, nameWidth - TerminalText.width(name))) + "   ")
        return text
    }
}
