import Domain
import Foundation
import Interactors
import Stores
import TerminalKit
import Testing
@testable import TerminalUI

/// The cross-broker view, the marks and flags of the per-broker view, sparklines and the sort marks
/// (issue 17, items 1, 2 and 7), as text snapshots and styles.
@Suite struct CrossBrokerScreenTests {
    typealias F = WatchlistFixture

    static let sizes = [(200, 50), (120, 35), (80, 24), (60, 20)]

    /// The fixture's rows with NVDA at Gamma 163 bp above the others (an outlier); MSFT at Gamma is
    /// stale (75 s) while the others are live.
    static let rows: [F.Row] = F.rows.enumerated().map { index, row in
        guard index == 8 else { return row }
        return F.row("NVDA", F.gamma, last: "133.20", close: "128.00", bid: "133.10", ask: "133.30", age: 12)
    }

    /// Ten minutes of prices per row: each row its own wave around its last price, so the sparklines differ.
    static let sparklines: [SparklineSeries] = rows.enumerated().map { index, row in
        var series = SparklineSeries(window: 600)
        guard let last = row.entry?.quote?.last, let receivedAt = row.entry?.receivedAt else { return series }
        for step in 0...30 {
            let time = receivedAt.addingTimeInterval(Double(step - 30) * 20)
            // A tooth of period 7 + index steps, one cent a step: deterministic and different per row.
            let tooth = Int64((step * (index + 1)) % (7 + index)) - 3
            series.record(last + ExactDecimal(units: tooth * 1_000_000), at: time)
        }
        return series
    }

    static func state(_ mode: WatchlistRowMode, sparklines: Bool = true) -> WatchlistViewState {
        var state = F.state(rows: rows)
        state.rows = WatchlistRows(
            rows, brokerStates: Dictionary(uniqueKeysWithValues: F.liveBrokers.map { ($0.branding.id, $0.state) }),
            sparklines: sparklines ? Self.sparklines : [], mode: mode)
        state.rowMode = mode
        state.selectedIndex = 1
        return state
    }

    @Test(arguments: sizes)
    func perSymbolSnapshots(columns: Int, rows: Int) {
        Snapshot.expect(F.render(Self.state(.perSymbol), columns: columns, rows: rows), matches: "cross-broker-per-symbol-\(columns)x\(rows)")
    }

    @Test(arguments: sizes)
    func perBrokerSnapshots(columns: Int, rows: Int) {
        Snapshot.expect(F.render(Self.state(.perBroker), columns: columns, rows: rows), matches: "cross-broker-per-broker-\(columns)x\(rows)")
    }

    /// One row per symbol: best bid and ask with their brokers' glyphs, the freshest last and its source,
    /// and how far the brokers differ.
    @Test func aSymbolRowShowsTheBestPricesWithWhoseTheyAre() {
        let frame = F.render(Self.state(.perSymbol, sparklines: false), columns: 120, rows: 35)
        #expect(frame.lines[1].contains("source") && frame.lines[1].contains("differ bp"))
        let apple = frame.lines[2]
        // Best bid 189.85 at Beta, best ask 189.82 at Gamma (a crossed market), last from Beta (1 s old).
        #expect(apple.contains("189.85 β"), "\(apple)")
        #expect(apple.contains("189.82 γ"), "\(apple)")
        #expect(apple.contains("β Beta Demo"))
        #expect(apple.contains("3.2"), "189.80…189.86 of the median 189.84")
        #expect(frame.lines[3].contains("MSFT"), "one row per symbol")
        #expect(!frame.lines.joined().contains("!"), "no flags in the per-symbol view")
    }

    /// Each broker a per-symbol row names is in that broker's color: the best bid's glyph, the best ask's
    /// and the freshest last's source (styled once a frame per broker, then picked per row).
    @Test func aSymbolRowPaintsEachBrokerItNamesInItsColor() {
        let frame = F.render(Self.state(.perSymbol, sparklines: false), columns: 120, rows: 35)
        let palette = Palette(F.utc)
        let apple = frame.lines[2]
        func column(after text: String) -> Int {
            apple.distance(from: apple.startIndex, to: apple.range(of: text)!.upperBound)
        }
        let beta = palette.brand(F.beta).foreground
        let gamma = palette.brand(F.gamma).foreground
        #expect(beta != nil && gamma != nil && beta != gamma)
        // "189.85 β": the glyph is the last cell of the text.
        #expect(frame[column(after: "189.85 β") - 1, 2].style.foreground == beta, "the best bid's glyph: \(apple)")
        #expect(frame[column(after: "189.82 γ") - 1, 2].style.foreground == gamma, "the best ask's glyph: \(apple)")
        #expect(frame[column(after: "β Beta Demo") - 11, 2].style.foreground == beta, "the source's glyph: \(apple)")
    }

    /// Per broker: the best bid and ask are marked `*` and styled; the outlier and the stale-while-others-
    /// live rows are flagged `!` in the margin.
    @Test func thePerBrokerViewMarksTheBestPricesAndFlagsOddBrokers() {
        let frame = F.render(Self.state(.perBroker, sparklines: false), columns: 120, rows: 35)
        let palette = Palette(F.utc)
        let appleBeta = frame.lines[3]
        #expect(appleBeta.contains("189.85*") && !appleBeta.contains("189.87*"), "beta's bid is AAPL's best, its ask is not: \(appleBeta)")
        let bidEnd = appleBeta.range(of: "189.85*")!.upperBound
        let markColumn = appleBeta.distance(from: appleBeta.startIndex, to: bidEnd) - 1
        #expect(frame[markColumn, 3].style.foreground == palette.best.foreground)
        #expect(frame[markColumn - 1, 3].style.bold)
        #expect(frame.lines[4].contains("189.82*"), "gamma's ask is AAPL's best")
        #expect(frame.lines[2].hasPrefix(" "), "AAPL at alpha is not flagged")
        #expect(frame.lines[7].hasPrefix("!"), "MSFT at gamma is stale while alpha and beta are live: \(frame.lines[7])")
        #expect(frame.lines[10].hasPrefix("!"), "NVDA at gamma is 163 bp from the others: \(frame.lines[10])")
        #expect(frame[0, 10].style.foreground == palette.flagged.foreground)
        #expect(!frame.lines[11].hasPrefix("!") && frame.lines[11].hasPrefix("~"), "ZZZZ: every broker stale, none flagged")
    }

    /// Without color the marks still say it: `*` beside the price, `!` in the margin, bold.
    @Test func marksAndFlagsSurviveMonochrome() {
        let frame = F.render(Self.state(.perBroker, sparklines: false), columns: 120, rows: 35, options: F.monochrome)
        #expect(frame.lines[3].contains("189.85*"))
        #expect(frame.lines[10].hasPrefix("!"))
        #expect(frame[0, 10].style.bold)
        #expect(frame[0, 10].style.foreground == nil)
    }

    @Test func sparklinesUseBlocksOrASCII() {
        let blocks = F.render(Self.state(.perBroker), columns: 200, rows: 50)
        #expect(blocks.lines[1].contains("trend"))
        #expect(blocks.lines[2].unicodeScalars.contains { (0x2581...0x2588).contains($0.value) })
        var ascii = F.utc
        ascii.unicode = false
        let plain = F.render(Self.state(.perBroker), columns: 200, rows: 50, options: ascii)
        #expect(plain.lines[1].contains("symbol^"), "the sort mark in ASCII: \(plain.lines[1])")
        #expect(plain.lines[2...13].allSatisfy { $0.unicodeScalars.allSatisfy { $0.isASCII || ["α", "β", "γ", "…", "—"].contains(Character($0)) } })
        #expect(plain.lines[2].contains("_") || plain.lines[2].contains("^"))
    }

    /// Only wide terminals show the sparkline; at 80 columns it has gone.
    @Test func theSparklineIsShownOnlyWhenThereIsRoom() {
        #expect(F.render(Self.state(.perBroker), columns: 120, rows: 35).lines[1].contains("trend"))
        #expect(!F.render(Self.state(.perBroker), columns: 80, rows: 24).lines[1].contains("trend"))
    }

    /// The sorted column's mark turns over when `r` reverses the order.
    @Test func theSortMarkFollowsTheDirection() {
        var state = Self.state(.perBroker, sparklines: false)
        #expect(F.render(state, columns: 120, rows: 35).lines[1].contains("symbol▲"))
        state.sortReversed = true
        #expect(F.render(state, columns: 120, rows: 35).lines[1].contains("symbol▼"))
        state.sort = .last
        #expect(F.render(state, columns: 120, rows: 35).lines[1].contains("▲last"))
        state.sortReversed = false
        #expect(F.render(state, columns: 120, rows: 35).lines[1].contains("▼last"))
    }

    /// The configured columns, in their order.
    @Test func theColumnsAreTheConfiguredOnesInTheirOrder() {
        var state = Self.state(.perBroker, sparklines: false)
        state.columns = [.symbol, .bid, .ask, .last]
        let headings = F.render(state, columns: 120, rows: 35).lines[1]
        #expect(headings.split(separator: " ", omittingEmptySubsequences: true) == ["symbol▲", "bid", "ask", "last"])
    }
}
