import Domain
import Stores
import Foundation
import Interactors
import TerminalUI
import TerminalKit

/// A fixed demo-like screen: three brokers, four symbols, one stale row, one flashing price, one
/// unknown symbol, the second row selected.
enum WatchlistFixture {
    static let now = Date(timeIntervalSince1970: 1_763_900_000)
    static let utc = RenderOptions(color: true, timeZone: TimeZone(identifier: "UTC")!)
    static let monochrome = RenderOptions(color: false, timeZone: TimeZone(identifier: "UTC")!)

    static let alpha = ServiceBranding(id: "demo-alpha", name: "Alpha Demo", glyph: "α", color: .cyan)
    static let beta = ServiceBranding(id: "demo-beta", name: "Beta Demo", glyph: "β", color: .magenta)
    static let gamma = ServiceBranding(id: "demo-gamma", name: "Gamma Flaky", glyph: "γ", color: .yellow)

    static func ago(_ seconds: TimeInterval) -> Date { now.addingTimeInterval(-seconds) }

    static func row(
        _ symbol: String, _ branding: ServiceBranding, last: String? = nil, close: String? = nil,
        bid: String? = nil, ask: String? = nil, volume: Int64? = nil, age: TimeInterval = 1,
        error: BrokerError? = nil, changedAgo: TimeInterval? = nil, direction: Int = 0
    ) -> Row {
        // Prices written as a broker sends them, read exactly.
        let quote = last.map {
            CommonQuote(
                symbol: symbol, last: exactDecimal($0), timestamp: ago(age), bid: bid.map(exactDecimal), ask: ask.map(exactDecimal),
                previousClose: close.map(exactDecimal), volume: volume)
        }
        return (
            QuoteKey(brandID: branding.id, symbol: symbol), branding,
            QuoteEntry(
                quote: quote, error: error, receivedAt: quote == nil ? nil : ago(age),
                lastChangeAt: changedAgo.map(ago), lastChangeDirection: direction))
    }

    /// Indexes into `rows` the style tests look at.
    enum Index {
        static let upRow = 0          // AAPL α, +2.34
        static let selected = 1       // AAPL β
        static let downRow = 3        // MSFT α, -3.38
        static let stale = 5          // MSFT γ, last quote 75 s ago
        static let flashing = 6       // NVDA α, changed 0.4 s ago, up
        static let unknown = 11       // ZZZZ γ
    }

    /// A row as the store would hold it.
    typealias Row = (key: QuoteKey, branding: ServiceBranding, entry: QuoteEntry?)

    static let rows: [Row] = [
        row("AAPL", alpha, last: "189.84", close: "187.50", bid: "189.83", ask: "189.85", volume: 52_340_000, age: 2),
        row("AAPL", beta, last: "189.86", close: "187.50", bid: "189.85", ask: "189.87", volume: 52_338_100, age: 1),
        row("AAPL", gamma, last: "189.80", close: "187.50", bid: "189.78", ask: "189.82", age: 5),
        row("MSFT", alpha, last: "402.12", close: "405.50", bid: "402.10", ask: "402.14", volume: 18_020_500, age: 3),
        row("MSFT", beta, last: "402.10", close: "405.50", bid: "402.08", ask: "402.12", volume: 18_019_900, age: 2),
        row("MSFT", gamma, last: "401.95", close: "405.50", bid: "401.90", ask: "402.00", age: 75),
        row("NVDA", alpha, last: "131.07", close: "128.00", bid: "131.06", ask: "131.08", volume: 240_100_000, age: 0.4,
            changedAgo: 0.4, direction: 1),
        row("NVDA", beta, last: "131.05", close: "128.00", bid: "131.04", ask: "131.06", volume: 240_099_000, age: 5,
            changedAgo: 5, direction: -1),
        row("NVDA", gamma, last: "131.10", close: "128.00", age: 12),
        row("ZZZZ", alpha, last: "12.34", close: "12.34", bid: "12.33", ask: "12.35", volume: 950, age: 130),
        row("ZZZZ", beta, last: "0.4321", age: 4_000),
        row("ZZZZ", gamma, error: .unknownSymbol("ZZZZ")),
    ]

    static let liveBrokers = [
        BrokerStatus(branding: alpha, state: .live),
        BrokerStatus(branding: beta, state: .live),
        BrokerStatus(branding: gamma, state: .live),
    ]

    static func state(
        rows: [Row] = rows, front: FrontScreen = .watchlist, brokers: [BrokerStatus] = liveBrokers,
        message: StatusMessage? = StatusMessage(.info, "Added NVDA", at: now)
    ) -> WatchlistViewState {
        WatchlistViewState(
            rows: WatchlistRows(rows, brokerStates: Dictionary(brokers.map { ($0.branding.id, $0.state) }, uniquingKeysWith: { $1 })),
            selectedIndex: rows.isEmpty ? nil : Index.selected, sort: .symbol, front: front,
            brokers: brokers, isDemo: true, message: message, staleAfter: 30, highlightFor: 1)
    }

    static func render(
        _ state: WatchlistViewState, columns: Int, rows: Int, options: RenderOptions = utc, scrolledTo offset: Int = 0
    ) -> ScreenBuffer {
        var viewport = TableViewport(offset: offset)
        return WatchlistScreen.render(state, size: ScreenSize(columns: columns, rows: rows), now: now, options: options, viewport: &viewport)
    }
}
