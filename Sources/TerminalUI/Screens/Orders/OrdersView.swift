import Domain
import Foundation
import Interactors
import Stores
import TerminalKit

/// The orders screen (`O`): open orders first, then the rest, newest first, at every trading broker.
struct OrdersView {
    let screen: OrdersScreen
    let portfolio: PortfolioStore
    let timeZone: TimeZone
    let palette: Palette

    static let table = FittedTable(columns: [
        .init(title: "Time", alignRight: false, priority: 40),
        .init(title: "Broker", alignRight: false, priority: 60),
        .init(title: "Side", alignRight: false, priority: 98),
        .init(title: "Qty", alignRight: true, priority: 97),
        .init(title: "Symbol", alignRight: false, priority: 100),
        .init(title: "Type", alignRight: false, priority: 90),
        .init(title: "Price", alignRight: true, priority: 85),
        .init(title: "TIF", alignRight: false, priority: 30),
        .init(title: "Status", alignRight: false, priority: 99),
        .init(title: "Filled", alignRight: true, priority: 70),
        .init(title: "Avg fill", alignRight: true, priority: 80),
    ])

    func draw(into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        guard !area.isEmpty else { return }
        let width = buffer.size.columns - 2
        let rows = OrdersScreen.rows(of: portfolio)
        var row = area.lowerBound
        let open = rows.filter { $0.order.status.isOpen }.count
        var title = StyledText("Orders", style: Style(bold: true))
        title.append("  \(open) open · \(rows.count) in all", style: palette.muted)
        if portfolio.brokers.contains(where: { $0.isLoading && $0.snapshot == nil }) { title.append("  loading…", style: palette.muted) }
        title.truncated(toWidth: width).draw(into: &buffer, column: 1, row: row)
        row += 1
        guard row < area.upperBound else { return }
        let cells = rows.map(cells(of:))
        let fitted = Self.table.fit(rows: cells, width: width)
        buffer.fill(row: row, style: palette.heading)
        Self.table.heading(fitted: fitted, style: palette.heading).truncated(toWidth: width).draw(into: &buffer, column: 1, row: row)
        row += 1
        if cells.isEmpty, row < area.upperBound {
            StyledText("No orders yet: B or S on a watchlist row opens an order ticket", style: palette.muted)
                .truncated(toWidth: width).draw(into: &buffer, column: 1, row: row)
            row += 1
        }
        let problems = portfolio.brokers.filter { $0.error != nil }
        let room = max(1, area.upperBound - row - problems.count)
        let selected = min(screen.selected, max(0, cells.count - 1))
        let first = max(0, min(selected - room + 1, cells.count - room))
        for (index, line) in cells.enumerated().dropFirst(first).prefix(room) where row < area.upperBound {
            Self.table.line(line, fitted: fitted).truncated(toWidth: width).draw(into: &buffer, column: 1, row: row)
            if index == selected { buffer.restyle(row: row) { $0.reverse = true } }
            row += 1
        }
        for broker in problems where row < area.upperBound {
            let text = TerminalText.sanitize(broker.branding.name) + ": " + TerminalText.sanitize(broker.error ?? "")
            StyledText(text, style: palette.message(.error)).truncated(toWidth: width).draw(into: &buffer, column: 1, row: row)
            row += 1
        }
    }

    private func cells(of row: OrdersScreen.OrderRow) -> [StyledText] {
        let order = row.order
        let branding = portfolio.portfolio(for: row.brokerID)?.branding
        let price: String = switch order.request.type {
        case .market: "—"
        case .limit(let limit): MoneyText.price(limit)
        case .stop(let stop): MoneyText.price(stop)
        case .stopLimit(let stop, let limit): "\(MoneyText.price(stop))/\(MoneyText.price(limit))"
        }
        let statusStyle: Style = switch order.status {
        case .filled: palette.trend(1)
        case .rejected: palette.message(.error)
        case .cancelled, .expired, .replaced: palette.muted
        default: Style(bold: true)
        }
        var status = order.status.name.replacingOccurrences(of: "_", with: " ")
        if let reason = order.rejectReason { status += ": " + TerminalText.sanitize(reason) }
        return [
            StyledText(HeaderBar.clock(order.updatedAt, timeZone: timeZone), style: palette.muted),
            StyledText(TerminalText.sanitize(branding?.name ?? row.brokerID), style: branding.map { palette.brand($0) } ?? .plain),
            StyledText(order.side.label, style: palette.trend(order.side.isBuy ? 1 : -1)),
            StyledText(order.request.quantity.description),
            StyledText(TerminalText.sanitize(order.symbol), style: Style(bold: true)),
            StyledText(order.request.type.name.replacingOccurrences(of: "_", with: " ")),
            StyledText(price),
            StyledText(order.request.timeInForce.rawValue),
            // The reason is cut to keep the other columns; the status line shows it whole when it arrives.
            StyledText(TerminalText.truncate(status, toWidth: 26), style: statusStyle),
            StyledText(order.filledQuantity.description),
            order.averageFillPrice.map { StyledText(MoneyText.price($0)) } ?? StyledText("—", style: palette.muted),
        ]
    }
}
