import Domain
import Foundation
import Interactors
import Stores
import TerminalKit

/// The positions screen (`P`), between the header and the status line: a row per position at every
/// trading broker valued at the live price, a totals row, then each account's cash, equity and buying
/// power, and any broker that could not answer.
struct PositionsView {
    let summary: PositionsSummary
    let selected: Int
    let palette: Palette

    static let table = FittedTable(columns: [
        .init(title: "Symbol", alignRight: false, priority: 100),
        .init(title: "Broker", alignRight: false, priority: 60),
        .init(title: "Qty", alignRight: true, priority: 95),
        .init(title: "Avg cost", alignRight: true, priority: 70),
        .init(title: "Last", alignRight: true, priority: 90),
        .init(title: "Mkt value", alignRight: true, priority: 80),
        .init(title: "Unrl P&L", alignRight: true, priority: 92),
        .init(title: "Unrl %", alignRight: true, priority: 85),
        .init(title: "Today", alignRight: true, priority: 50),
        .init(title: "Realized", alignRight: true, priority: 40),
    ])

    func draw(into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        guard !area.isEmpty else { return }
        let width = buffer.size.columns - 2
        var row = area.lowerBound
        var title = StyledText("Positions", style: Style(bold: true))
        let count = summary.lines.count
        title.append("  \(count == 1 ? "1 position" : "\(count) positions")", style: palette.muted)
        if summary.isLoading { title.append("  loading…", style: palette.muted) }
        title.truncated(toWidth: width).draw(into: &buffer, column: 1, row: row)
        row += 1
        guard row < area.upperBound else { return }

        let cells = summary.lines.map(cells(of:))
        let totals = totalCells()
        let fitted = Self.table.fit(rows: cells + [totals], width: width)
        buffer.fill(row: row, style: palette.heading)
        Self.table.heading(fitted: fitted, style: palette.heading).truncated(toWidth: width).draw(into: &buffer, column: 1, row: row)
        row += 1
        if cells.isEmpty, row < area.upperBound {
            let hint = summary.isLoading ? "Asking the brokers…" : "No positions yet: B on a watchlist row opens an order ticket"
            StyledText(hint, style: palette.muted).truncated(toWidth: width).draw(into: &buffer, column: 1, row: row)
            row += 1
        }
        // Rows scroll to keep the selection on screen, leaving room for totals and accounts below.
        let reserved = 2 + min(summary.accounts.count + 1, 4)
        let room = max(1, area.upperBound - row - reserved)
        let first = max(0, min(selected - room + 1, cells.count - room))
        for (index, line) in cells.enumerated().dropFirst(first).prefix(room) where row < area.upperBound {
            Self.table.line(line, fitted: fitted).truncated(toWidth: width).draw(into: &buffer, column: 1, row: row)
            // The selected row in reverse video across the width, as in the watchlist.
            if index == selected { buffer.restyle(row: row) { $0.reverse = true } }
            row += 1
        }
        if !cells.isEmpty, row < area.upperBound {
            Self.table.line(totals, fitted: fitted).truncated(toWidth: width).draw(into: &buffer, column: 1, row: row)
            buffer.restyle(row: row) { $0.bold = true }
            row += 1
        }
        row += 1
        for account in summary.accounts where row < area.upperBound {
            accountLine(account).truncated(toWidth: width).draw(into: &buffer, column: 1, row: row)
            row += 1
        }
        for problem in summary.problems where row < area.upperBound {
            var line = StyledText(TerminalText.sanitize(problem.branding.name) + ": ", style: palette.message(.error))
            line.append(TerminalText.sanitize(problem.reason), style: palette.message(.error))
            line.truncated(toWidth: width).draw(into: &buffer, column: 1, row: row)
            row += 1
        }
    }

    private func signed(_ value: ExactDecimal?, percent: Bool = false) -> StyledText {
        guard let value else { return StyledText("—", style: palette.muted) }
        let text = percent ? MoneyText.percent(value) : MoneyText.format(value, signed: true)
        return StyledText(text, style: palette.trend(value))
    }

    private func cells(of line: PositionsSummary.Line) -> [StyledText] {
        let position = line.position
        return [
            StyledText(TerminalText.sanitize(position.symbol), style: Style(bold: true)),
            StyledText(
                TerminalText.sanitize(line.branding.name) + (position.account.map { " · " + TerminalText.sanitize($0) } ?? ""),
                style: palette.brand(line.branding)),
            StyledText(position.quantity.description),
            StyledText(MoneyText.price(position.averageCost)),
            position.lastPrice.map { StyledText(MoneyText.price($0), style: line.isLive ? .plain : palette.muted) } ?? StyledText("—", style: palette.muted),
            position.marketValue.map { StyledText(MoneyText.format($0)) } ?? StyledText("—", style: palette.muted),
            signed(position.unrealizedPnL),
            signed(position.unrealizedPnLPercent, percent: true),
            signed(position.todayPnL),
            signed(position.realizedPnL),
        ]
    }

    private func totalCells() -> [StyledText] {
        let totals = summary.totals
        return [
            StyledText("Total"), StyledText(), StyledText(), StyledText(), StyledText(),
            StyledText(MoneyText.format(totals.marketValue)),
            signed(totals.unrealizedPnL),
            signed(totals.unrealizedPnLPercent, percent: true),
            signed(totals.todayPnL),
            signed(totals.realizedPnL),
        ]
    }

    private func accountLine(_ account: PositionsSummary.Account) -> StyledText {
        var line = StyledText(TerminalText.sanitize(account.branding.name), style: palette.brand(account.branding))
        line.append(" " + TerminalText.sanitize(account.balance.accountID), style: palette.muted)
        for (label, value) in [("cash", account.balance.cash), ("equity", account.balance.equity), ("buying power", account.balance.buyingPower)] {
            line.append("   \(label) ", style: palette.muted)
            line.append(value.map { MoneyText.format($0) } ?? "—")
        }
        return line
    }
}
