import TerminalKit
import Domain
import Foundation
import Interactors

/// The detail view (Enter on a row): one symbol across every broker, between the header and the status
/// line. A summary (best bid, best ask, how far brokers disagree), a row per broker, and a chart of the
/// last minutes of each broker's price that re-scales as prices move.
struct DetailView {
    let detail: SymbolDetail
    let now: Date
    let unicode: Bool
    let palette: Palette

    /// The chart shows at most this much history, and at least one minute so the first quotes sit at
    /// the right edge instead of filling it.
    static let window: TimeInterval = 30 * 60
    static let shortestWindow: TimeInterval = 60

    func draw(into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        guard area.count >= 3 else { return }
        var row = area.lowerBound
        // The summary's parts flow onto a second row on a narrow terminal rather than being cut.
        var line = StyledText()
        for part in summaryParts() {
            if !line.isEmpty, line.width + 3 + part.width > buffer.size.columns - 2, row + 1 < area.upperBound {
                line.draw(into: &buffer, column: 1, row: row)
                row += 1
                line = StyledText("  ")
            } else if !line.isEmpty {
                line.append("   ")
            }
            line.append(part)
        }
        line.truncated(toWidth: buffer.size.columns - 2).draw(into: &buffer, column: 1, row: row)
        row += 1

        let columns = fittingColumns(width: buffer.size.columns - 2)
        var heading = StyledText()
        for (index, column) in columns.enumerated() {
            let text = index == 0 ? column.title.padding(toLength: column.width, withPad: " ", startingAt: 0)
                : String(repeating: " ", count: max(0, column.width - column.title.count)) + column.title
            heading.append((index == 0 ? "" : "  ") + text, style: palette.heading)
        }
        buffer.fill(row: row, style: palette.heading)
        heading.truncated(toWidth: buffer.size.columns - 2).draw(into: &buffer, column: 1, row: row)
        row += 1

        let best = (bid: detail.bestBid?.branding.id, ask: detail.bestAsk?.branding.id)
        for entry in detail.entries where row < area.upperBound {
            self.row(entry, best: best, columns: columns).truncated(toWidth: buffer.size.columns - 2)
                .draw(into: &buffer, column: 1, row: row)
            row += 1
        }
        row += 1
        let chartRows = row..<area.upperBound
        guard chartRows.count >= 4 else { return }
        let chart = self.chart
        if chart.priceRange == nil {
            StyledText("No prices yet: the chart fills in as quotes arrive", style: palette.muted)
                .draw(into: &buffer, column: 1 + PriceChart.labelWidth, row: chartRows.lowerBound)
        } else {
            chart.draw(into: &buffer, rows: chartRows)
        }
    }

    enum Column: CaseIterable {
        case broker, last, bid, ask, spread, volume, seenRange, age, state

        var title: String {
            switch self {
            case .broker: "broker"
            case .last: "last"
            case .bid: "bid"
            case .ask: "ask"
            case .spread: "spread"
            case .volume: "volume"
            case .seenRange: "seen lo–hi"
            case .age: "age"
            case .state: "state"
            }
        }
    }

    /// Every column that fits in `width`; on a narrow terminal the seen range goes first, then volume,
    /// then the spread, so prices, age and connection state stay.
    private func fittingColumns(width: Int) -> [(column: Column, title: String, width: Int)] {
        func widthOf(_ column: Column) -> Int {
            switch column {
            case .broker: brokerWidth
            case .last, .bid, .ask: 8
            case .spread, .volume: 7
            case .seenRange: 17
            case .age: 4
            case .state: 15
            }
        }
        var shown = Column.allCases
        for dropped in [Column.seenRange, .volume, .spread, .bid] {
            let total = shown.reduce(0) { $0 + widthOf($1) + 2 } - 2
            if total <= width { break }
            shown.removeAll { $0 == dropped }
        }
        return shown.map { ($0, $0.title, widthOf($0)) }
    }

    private var brokerWidth: Int {
        min(22, (detail.entries.map { TerminalText.width(TerminalText.sanitize($0.branding.name)) }.max() ?? 6) + 2)
    }

    /// "AAPL", "best bid 189.85 β Beta Demo", "best ask 189.85 α Alpha Demo", "brokers differ by 3.2 bp".
    private func summaryParts() -> [StyledText] {
        var parts = [StyledText(detail.symbol, style: Style(bold: true))]
        for (label, best) in [("best bid ", detail.bestBid), ("best ask ", detail.bestAsk)] {
            guard let best else { continue }
            var part = StyledText(label, style: palette.muted)
            part.append(QuoteFormatting.price(best.price) + " ")
            part.append(cells: [WatchlistTable.glyph(of: best.branding)], style: palette.brand(best.branding))
            part.append(" " + best.branding.name)
            parts.append(part)
        }
        if let bps = detail.disagreementBasisPoints {
            var part = StyledText("brokers differ by ", style: palette.muted)
            part.append(QuoteFormatting.fixed(bps, decimals: 1) + " bp")
            parts.append(part)
        } else if detail.bestBid == nil && detail.bestAsk == nil {
            parts.append(StyledText("waiting for quotes", style: palette.muted))
        }
        return parts
    }

    private func row(_ entry: SymbolDetail.Entry, best: (bid: String?, ask: String?), columns: [(column: Column, title: String, width: Int)]) -> StyledText {
        var text = StyledText()
        let quote = entry.quote
        let missing = QuoteFormatting.missing
        for (column, _, width) in columns {
            func cell(_ value: String, _ style: Style = .plain) {
                text.append("  " + String(repeating: " ", count: max(0, width - value.count)) + value, style: style)
            }
            switch column {
            case .broker:
                text.append(cells: [WatchlistTable.glyph(of: entry.branding)], style: palette.brand(entry.branding))
                let name = TerminalText.truncate(TerminalText.sanitize(entry.branding.name), toWidth: width - 2)
                text.append(" " + name.padding(toLength: width - 1, withPad: " ", startingAt: 0))
                if quote == nil, let error = entry.error {
                    text.append("  " + error, style: palette.rowError(transient: false))
                    return text
                }
            case .last: cell(quote.map { QuoteFormatting.price($0.last) } ?? missing)
            case .bid: cell(quote?.bid.map(QuoteFormatting.price) ?? missing, best.bid == entry.branding.id ? palette.best : .plain)
            case .ask: cell(quote?.ask.map(QuoteFormatting.price) ?? missing, best.ask == entry.branding.id ? palette.best : .plain)
            case .spread:
                let spread = quote.flatMap { q in q.bid.flatMap { bid in q.ask.flatMap { try? $0.subtracting(bid) } } }
                cell(spread.map { QuoteFormatting.fixed($0, decimals: QuoteFormatting.decimals(forPrice: quote?.last ?? 1)) } ?? missing)
            case .volume: cell(quote?.volume.map(QuoteFormatting.volume) ?? missing)
            case .seenRange: cell(entry.seenRange.map { "\(QuoteFormatting.price($0.lowerBound))–\(QuoteFormatting.price($0.upperBound))" } ?? missing)
            case .age: cell(entry.receivedAt.map { QuoteFormatting.age(since: quote?.timestamp ?? $0, now: now) } ?? missing)
            case .state: cell(BrokerFooter.describe(entry.state, now: now), palette.connection(entry.state))
            }
        }
        return text
    }

    private var chart: PriceChart {
        let oldest = detail.entries.compactMap(\.history.first?.time).min() ?? now
        let span = min(Self.window, max(Self.shortestWindow, now.timeIntervalSince(oldest)))
        return PriceChart(
            series: detail.entries.map { PriceChart.Series(points: $0.history, style: palette.brand($0.branding)) },
            start: now.addingTimeInterval(-span), end: now, unicode: unicode, palette: palette)
    }
}
