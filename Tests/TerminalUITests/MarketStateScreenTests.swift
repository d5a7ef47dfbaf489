import Domain
import Foundation
import Interactors
import TerminalKit
import Testing
import TerminalUI

/// The US equity market's state in the header and "closed" in the age column (issue 17, item 8). The
/// fixture's time is Sunday 2025-11-23 12:13:20 UTC (07:13 in New York): the market is closed, and Friday
/// 2025-11-21 was the last session (04:00–20:00 New York, 09:00 UTC Friday to 01:00 UTC Saturday).
@Suite struct MarketStateScreenTests {
    typealias F = WatchlistFixture
    static let sizes = [(200, 50), (120, 35), (80, 24), (60, 20)]
    static let withMarket = RenderOptions(color: true, timeZone: TimeZone(identifier: "UTC")!, market: .standard)

    /// Seconds before the fixture's time: Friday 16:00 New York, the close.
    static let fridayClose: TimeInterval = 141_200

    /// Stocks and an index last priced in Friday's session say "closed"; prices made since (a demo that
    /// never closes), a crypto pair's, and a stock's from Thursday keep counting.
    static let rows: [F.Row] = [
        F.row("AAPL", F.alpha, last: "189.84", close: "187.50", bid: "189.83", ask: "189.85", volume: 52_340_000, age: fridayClose),
        F.row("AAPL", F.beta, last: "189.91", close: "187.50", bid: "189.90", ask: "189.92", volume: 52_338_100, age: fridayClose - 3 * 3_600),
        F.row("AAPL", F.gamma, last: "189.80", close: "187.50", age: 4),
        F.row("BTC/USD", F.alpha, last: "86512.25", close: "85980.00", bid: "86512.00", ask: "86512.50", age: 30),
        F.row("BTC/USD", F.beta, last: "86490.00", close: "85980.00", age: fridayClose),
        F.row("MSFT", F.alpha, last: "402.12", close: "405.50", bid: "402.10", ask: "402.14", volume: 18_020_500, age: 200_000),
        F.row("^GSPC", F.alpha, last: "6602.99", close: "6538.76", age: fridayClose + 60),
    ]

    func state() -> WatchlistViewState {
        var state = F.state(rows: Self.rows, message: nil)
        state.selectedIndex = 0
        return state
    }

    @Test func theClosedMarketAtEverySize() {
        for (columns, rows) in Self.sizes {
            Snapshot.expect(F.render(state(), columns: columns, rows: rows, options: Self.withMarket), matches: "market-closed-\(columns)x\(rows)")
        }
    }

    @Test func theHeaderShortensTheStateOnNarrowTerminals() {
        let header = { (columns: Int) in F.render(state(), columns: columns, rows: 20, options: Self.withMarket).lines[0] }
        #expect(header(200).contains("NYSE closed · opens Mon 09:30 ET   12:13:20"))
        #expect(header(120).contains("NYSE closed · opens Mon 09:30 ET   12:13:20"))
        #expect(header(80).hasSuffix("sort: symbol     closed · opens Mon 09:30 ET "))
        #expect(!header(80).contains("12:13:20"), "the clock goes first")
        #expect(header(60).hasSuffix("   closed "))
        #expect(header(40).hasPrefix(" CommonBroker  DEMO "))
        // Without a market in the options, the header is as it was.
        #expect(!F.render(state(), columns: 200, rows: 20).lines[0].contains("NYSE"))
    }

    @Test func theAgeColumnSaysClosedForPricesFromTheLastSession() {
        let lines = F.render(state(), columns: 120, rows: 20, options: Self.withMarket).lines
        func age(_ row: Int) -> String { String(lines[row + 2].split(separator: " ").last ?? "") }
        #expect(age(0) == "closed")  // AAPL α, Friday 16:00
        #expect(age(1) == "closed")  // AAPL β, Friday 19:00, after hours
        #expect(age(2) == "4s")      // AAPL γ, Sunday: after the close
        #expect(age(3) == "30s")     // BTC/USD trades around the clock
        #expect(age(4) == "1d")
        #expect(age(5) == "2d")      // MSFT from Thursday: stale, whatever the market does
        #expect(age(6) == "closed")  // ^GSPC, Friday 15:59
        // A closing price is not late: no stale mark. A crypto pair's day-old price and Thursday's are.
        #expect(lines[2].hasPrefix(" AAPL") && lines[3].hasPrefix(" AAPL") && lines[8].hasPrefix(" ^GSPC"))
        // BTC/USD at beta is stale while alpha's is live, so it is flagged `!` (issue 17); MSFT has no other.
        #expect(lines[6].hasPrefix("!BTC/USD") && lines[7].hasPrefix("~MSFT"))
        let withoutMarket = F.render(state(), columns: 120, rows: 20).lines
        #expect(withoutMarket[2].split(separator: " ").last == "1d")
        #expect(withoutMarket[2].hasPrefix("!AAPL"), "without a market, Friday's price is stale while gamma's is live")
    }

    /// Each phase's words, at a time in it (New York time in the comments), on a wide and a narrow screen.
    @Test(arguments: [
        // Monday 2025-11-24 05:00
        (1_763_978_400, "NYSE pre-market · opens 09:30 ET", "pre-market"),
        // Monday 10:00
        (1_763_996_400, "NYSE open · closes 16:00 ET", "NYSE open"),
        // Monday 17:00
        (1_764_021_600, "NYSE after hours · until 20:00 ET", "after hours"),
        // Monday 21:00
        (1_764_036_000, "NYSE closed · opens Tue 09:30 ET", "closed"),
        // Tuesday 02:00: the open is the same day
        (1_764_054_000, "NYSE closed · opens 09:30 ET", "closed"),
        // Wednesday 2025-11-26 21:00, Thanksgiving next
        (1_764_208_800, "NYSE closed · opens Fri 09:30 ET", "closed"),
        // Friday 2025-11-28 12:00, an early close
        (1_764_349_200, "NYSE open · closes 13:00 ET", "NYSE open"),
    ])
    func eachPhaseHasItsWords(seconds: Int, wide: String, narrow: String) {
        let now = Date(timeIntervalSince1970: TimeInterval(seconds))
        func header(_ columns: Int) -> String {
            var viewport = TableViewport()
            return WatchlistScreen.render(
                state(), size: ScreenSize(columns: columns, rows: 20), now: now, options: Self.withMarket, viewport: &viewport
            ).lines[0]
        }
        #expect(header(120).contains(wide + "   "), "\(header(120))")
        #expect(header(60).hasSuffix("   " + narrow + " "), "\(header(60))")
    }

    /// The phase word is the row's plain text; the rest is the header's muted detail.
    @Test func thePhaseWordStandsOut() {
        let frame = F.render(state(), columns: 120, rows: 20, options: Self.withMarket)
        let word = frame.cells(showing: "closed", row: 0)
        let detail = frame.cells(showing: "opens Mon", row: 0)
        #expect(!word.isEmpty && !detail.isEmpty)
        #expect(word.allSatisfy { !$0.style.dim }, "the phase is read first")
        #expect(detail.allSatisfy { $0.style.dim })
    }
}
