import Domain
import Foundation
import Interactors
import TerminalKit
import Testing
import TerminalUI

/// The detail view (issue 14, item 7): a symbol across every broker with a chart fed by a fixed history.
@Suite struct DetailScreenTests {
    typealias F = WatchlistFixture

    /// Ten minutes of prices: alpha climbs, beta falls, gamma is flat and stops five minutes ago.
    static func history(_ base: String, slope: String, until end: Int = 0) -> [PricePoint] {
        stride(from: 600, through: end, by: -10).map { ago in
            // base + slope × (600 − ago) ÷ 600, exactly (to 8 decimals)
            let climbed = (try? exactDecimal(slope).ratio(to: 600, times: 600 - ago)) ?? 0
            return PricePoint(time: F.ago(TimeInterval(ago)), price: exactDecimal(base) + climbed)
        }
    }

    static let detail = SymbolDetail(symbol: "AAPL", entries: [
        SymbolDetail.Entry(
            branding: F.alpha, quote: CommonQuote(symbol: "AAPL", last: exactDecimal("189.84"), timestamp: F.ago(2), bid: exactDecimal("189.83"), ask: exactDecimal("189.85"), volume: 52_340_000),
            state: .live, receivedAt: F.ago(2), seenRange: exactDecimal("188.10")...exactDecimal("189.90"), history: history("188.2", slope: "1.6")),
        SymbolDetail.Entry(
            branding: F.beta, quote: CommonQuote(symbol: "AAPL", last: exactDecimal("189.86"), timestamp: F.ago(1), bid: exactDecimal("189.85"), ask: exactDecimal("189.87")),
            state: .live, receivedAt: F.ago(1), seenRange: exactDecimal("189.70")...exactDecimal("190.40"), history: history("190.4", slope: "-0.55")),
        SymbolDetail.Entry(
            branding: F.gamma, quote: CommonQuote(symbol: "AAPL", last: exactDecimal("189.80"), timestamp: F.ago(300), bid: exactDecimal("189.78"), ask: exactDecimal("189.82")),
            state: .reconnecting(attempt: 2, reason: "reset"), receivedAt: F.ago(300), seenRange: exactDecimal("189.80")...exactDecimal("189.80"),
            history: history("189.8", slope: "0", until: 300)),
    ])

    func state() -> WatchlistViewState {
        var state = F.state(front: .detail(DetailScreen(symbol: "AAPL")), message: nil)
        state.detail = Self.detail
        return state
    }

    @Test(arguments: [(120, 35), (80, 24), (60, 20)])
    func snapshots(columns: Int, rows: Int) {
        Snapshot.expect(F.render(state(), columns: columns, rows: rows), matches: "detail-\(columns)x\(rows)")
    }

    @Test func theSummaryNamesTheBestBidAndAskAndTheDisagreement() {
        let frame = F.render(state(), columns: 120, rows: 35)
        #expect(frame.lines[1].contains("best bid 189.85 β Beta Demo"))
        #expect(frame.lines[1].contains("best ask 189.82 γ Gamma Flaky"))
        #expect(frame.lines[1].contains("brokers differ by 3.2 bp"))
        #expect(frame.lines[34].contains("Esc back to the list"))
    }

    @Test func theChartHasPriceAndTimeLabelsAndUsesBrailleOrASCII() {
        let frame = F.render(state(), columns: 120, rows: 35)
        let chart = frame.lines[7...32].joined(separator: "\n")
        #expect(chart.contains("190.51"), "the top label is the highest price plus a margin:\n\(chart)")
        #expect(chart.contains("-10m") && chart.contains("now"))
        #expect(chart.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
        var ascii = F.utc
        ascii.unicode = false
        let plain = F.render(state(), columns: 120, rows: 35, options: ascii)
        #expect(plain.lines[7...32].joined().contains("*"))
        #expect(!plain.lines[7...32].joined().unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) })
    }

    /// A narrow terminal keeps prices, age and connection state, dropping the seen range, volume and spread.
    @Test func narrowTerminalsKeepPricesAgeAndState() {
        let frame = F.render(state(), columns: 60, rows: 20)
        #expect(frame.lines[2].contains("brokers differ by 3.2 bp"), "the summary flows onto a second row")
        #expect(frame.lines[3].contains("last") && frame.lines[3].contains("age") && frame.lines[3].contains("state"))
        #expect(!frame.lines[3].contains("seen"))
        #expect(frame.lines[6].contains("reconnecting 2"))
    }

    @Test func withoutPricesTheChartSaysSo() {
        var state = state()
        state.detail = SymbolDetail(symbol: "ZZZZ", entries: [SymbolDetail.Entry(branding: F.alpha, error: "unknown symbol")])
        let frame = F.render(state, columns: 80, rows: 24)
        #expect(frame.lines.joined().contains("No prices yet: the chart fills in as quotes arrive"))
        #expect(frame.lines[3].contains("unknown symbol"))
    }

    @Test func statsAcrossBrokers() {
        #expect(Self.detail.bestBid?.branding == F.beta)
        #expect(Self.detail.bestAsk?.branding == F.gamma)
        // (189.86 − 189.80) ÷ 189.84 × 10,000 = 3.1605562…, cut at the 8th decimal
        #expect(Self.detail.disagreementBasisPoints == exactDecimal("3.16055625"))
        // An even count: the median is the mean of the middle two, never rounded itself.
        let two = SymbolDetail(symbol: "X", entries: [
            SymbolDetail.Entry(branding: F.alpha, quote: CommonQuote(symbol: "X", last: exactDecimal("0.00000001"), timestamp: F.now)),
            SymbolDetail.Entry(branding: F.beta, quote: CommonQuote(symbol: "X", last: exactDecimal("0.00000002"), timestamp: F.now)),
        ])
        #expect(two.disagreementBasisPoints == exactDecimal("6666.66666666"))
        #expect(SymbolDetail(symbol: "X", entries: [SymbolDetail.Entry(branding: F.alpha)]).disagreementBasisPoints == nil)
    }
}
