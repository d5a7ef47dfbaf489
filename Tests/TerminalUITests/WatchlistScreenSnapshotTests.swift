import Foundation
import Domain
import Stores
import Interactors
import Testing
import TerminalKit
@testable import TerminalUI

@Suite struct WatchlistScreenSnapshotTests {
    typealias F = WatchlistFixture

    @Test func fullScreenAt100x30() {
        let frame = F.render(F.state(), columns: 100, rows: 30)
        Snapshot.expect(frame, matches: "watchlist-100x30")
        #expect(frame.cursor == nil)
    }

    @Test func narrowAt60x20() {
        Snapshot.expect(F.render(F.state(), columns: 60, rows: 20), matches: "watchlist-60x20")
    }

    @Test func minimumAt40x8ScrolledToTheSelection() {
        var state = F.state()
        state.selectedIndex = 6
        Snapshot.expect(F.render(state, columns: 40, rows: 8, scrolledTo: 3), matches: "watchlist-40x8")
    }

    @Test func helpOverlay() {
        Snapshot.expect(F.render(F.state(front: .help), columns: 100, rows: 30), matches: "help-100x30")
    }

    @Test func helpOverlayClippedAtMinimumSize() {
        Snapshot.expect(F.render(F.state(front: .help), columns: 40, rows: 8), matches: "help-40x8")
    }

    @Test func addPromptWithError() {
        guard case .failure(let error) = Symbol.normalize("ZZ$") else {
            Issue.record("ZZ$ should be rejected")
            return
        }
        let frame = F.render(F.state(front: .adding(TextPrompt(text: "ZZ$", error: error.description))), columns: 100, rows: 30)
        Snapshot.expect(frame, matches: "add-prompt-error-100x30")
        #expect(frame.cursor?.row == 28)
        #expect(frame.cursor?.column == 17)
        #expect(frame.lines[28].hasPrefix(" Add symbols: ZZ$  ZZ$ contains '$'"))
    }

    @Test func addPromptKeepsTheCursorVisibleForLongInput() {
        let typed = String(repeating: "ABCD ", count: 20)
        let frame = F.render(F.state(front: .adding(TextPrompt(text: typed))), columns: 40, rows: 8)
        #expect(frame.cursor?.row == 6)
        #expect(frame.cursor?.column == 38)
        #expect(frame.lines[6].hasPrefix(" Add symbols: …"))
    }

    /// An account figure written as the broker sends it.
    func money(_ text: String) -> ExactDecimal {
        guard let value = ExactDecimal(parsing: text) else { preconditionFailure("\(text) is not a decimal") }
        return value
    }

    @Test func accountsPanelTakesRowsFromTheTable() {
        let tradier = ServiceBranding(id: "tradier", name: "Tradier", glyph: "T", color: .blue)
        let alpaca = ServiceBranding(id: "alpaca", name: "Alpaca", glyph: "A", color: .yellow)
        let polygon = ServiceBranding(id: "polygon", name: "Polygon", glyph: "P", color: .magenta)
        var state = F.state()
        state.accounts = AccountsPanel(entries: [
            AccountsPanelEntry(branding: tradier, balances: [
                AccountBalance(accountID: "6YA05708", cash: money("14930.36"), buyingPower: money("12893.21"), equity: money("17798.36")),
                AccountBalance(accountID: "6YA05709", cash: -1_250, buyingPower: nil, equity: money("1234567.891")),
            ]),
            AccountsPanelEntry(branding: alpaca, error: "unauthorized, check APCA_API_KEY_ID\u{1B}[2J"),
            AccountsPanelEntry(branding: polygon, isLoading: true),
        ])
        let size = ScreenSize(columns: 100, rows: 30)
        Snapshot.expect(WatchlistScreen.render(state, size: size, now: F.now, options: F.utc), matches: "accounts-100x30")
        #expect(WatchlistScreen.visibleTableRows(for: size, state: state, now: F.now) == 26 - 6)
        var closed = state
        closed.accounts = nil
        #expect(WatchlistScreen.visibleTableRows(for: size, state: closed, now: F.now) == 26)
        state.accounts = AccountsPanel(entries: [])
        Snapshot.expect(F.render(state, columns: 60, rows: 12), matches: "accounts-none-60x12")
    }

    @Test func footerSpellsOutWhichCredentialToCheck() {
        let finnhub = ServiceBranding(id: "finnhub", name: "Finnhub", glyph: "F", color: .green)
        let brokers = [
            BrokerStatus(branding: finnhub, state: .failed(reason: "unauthorized, check FINNHUB_TOKEN")),
            BrokerStatus(branding: F.alpha, state: .live),
        ]
        let footer = F.render(F.state(brokers: brokers), columns: 100, rows: 30).lines[29]
        #expect(footer.contains("F Finnhub failed: unauthorized, check FINNHUB_TOKEN"), "\(footer)")
    }

    /// Issue 13: frames a broker sent that could not be decoded are counted after its state.
    @Test func footerCountsABrokersBadFrames() {
        let brokers = [
            BrokerStatus(branding: F.alpha, state: .live, skippedFrames: 3),
            BrokerStatus(branding: F.beta, state: .live),
        ]
        let footer = F.render(F.state(brokers: brokers), columns: 100, rows: 30).lines[29]
        #expect(footer.contains("● live · 3 bad frames"), "\(footer)")
        #expect(!footer.contains("0 bad frames") && footer.components(separatedBy: "bad frame").count == 2, "\(footer)")
    }

    @Test func footerSaysWhyACertificateWasRefused() {
        let brokers = [BrokerStatus(branding: F.alpha, state: .failed(reason: "certificate not trusted (set tls.caFile)"))]
        let footer = F.render(F.state(brokers: brokers), columns: 100, rows: 30).lines[29]
        #expect(footer.contains("failed: certificate not trusted (set tls.caFile)"), "\(footer)")
    }

    @Test func emptyWatchlist() {
        let state = F.state(rows: [], message: nil)
        Snapshot.expect(F.render(state, columns: 60, rows: 12), matches: "empty-60x12")
    }

    @Test func terminalTooSmall() {
        let frame = F.render(F.state(), columns: 30, rows: 5)
        Snapshot.expect(frame, matches: "too-small-30x5")
        #expect(WatchlistScreen.visibleTableRows(for: ScreenSize(columns: 30, rows: 5), state: F.state(), now: F.now) == 0)
    }

    @Test func brokerReconnecting() {
        var rows = F.rows
        rows[2].entry = nil  // no price yet: the row says its broker is reconnecting
        rows[8].entry = nil  // no price yet: the row says its broker is reconnecting
        let brokers = [
            BrokerStatus(branding: F.alpha, state: .live),
            BrokerStatus(branding: F.beta, state: .failed(reason: "unauthorized")),
            BrokerStatus(branding: F.gamma, state: .reconnecting(attempt: 3, reason: "connection reset")),
        ]
        let state = F.state(rows: rows, brokers: brokers, message: StatusMessage(.warning, "Gamma Flaky dropped: connection reset", at: F.now))
        Snapshot.expect(F.render(state, columns: 100, rows: 30), matches: "reconnecting-100x30")
    }

    @Test func tlsVerificationOffIsInTheHeaderOfEveryFrame() {
        var state = F.state()
        state.securityWarning = "TLS NOT VERIFIED"
        let frame = F.render(state, columns: 60, rows: 20)
        Snapshot.expect(frame, matches: "tls-not-verified-60x20")
        #expect(F.render(state, columns: 40, rows: 8).lines.first?.contains("TLS NOT VERIFIED") == true,
                "the badge survives a narrow terminal: the sort and the clock give way first")
    }

    @Test func hostileTextFromBrokersCannotShiftColumns() {
        let evil = ServiceBranding(id: "evil", name: "Evil\u{1B}[2J\u{202E}Corp 株式", glyph: "\u{1B}]0;x\u{07}E", color: .red)
        // The row has no price, so it says why its broker is down: the broker's own words.
        let rows: [F.Row] = [(QuoteKey(brandID: "evil", symbol: "A\u{0007}B"), evil, nil)]
        let failed = BrokerStatus(branding: evil, state: .failed(reason: "bad\r\nresponse \u{9B}31m\u{1F600} here"))
        let frame = F.render(F.state(rows: rows, brokers: [failed], message: nil), columns: 60, rows: 8)
        Snapshot.expect(frame, matches: "hostile-text-60x8")
        for line in frame.lines {
            #expect(line.count == 60)
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
        }
    }

    @Test func visibleTableRowsLeavesRoomForHeaderHeadingsStatusAndFooter() {
        let state = F.state(message: nil)
        #expect(WatchlistScreen.visibleTableRows(for: ScreenSize(columns: 100, rows: 30), state: state, now: F.now) == 26)
        #expect(WatchlistScreen.visibleTableRows(for: WatchlistScreen.minimumSize, state: state, now: F.now) == 4)
        #expect(WatchlistScreen.visibleTableRows(for: ScreenSize(columns: 39, rows: 30), state: state, now: F.now) == 0)
    }

    @Test func degenerateSizesDoNotCrash() {
        for size in [ScreenSize(columns: 0, rows: 0), ScreenSize(columns: -3, rows: 4), ScreenSize(columns: 1, rows: 1)] {
            let frame = WatchlistScreen.render(F.state(), size: size, now: F.now, options: F.utc)
            #expect(frame.lines.count == max(0, size.rows))
        }
    }

    @Test func outOfRangeSelectionAndScrollDrawNoRowsAndDoNotCrash() {
        var state = F.state()
        state.selectedIndex = 99
        let frame = F.render(state, columns: 60, rows: 20, scrolledTo: 50)
        #expect(frame.lines[2].trimmingCharacters(in: .whitespaces).isEmpty)
        #expect(!frame.allCells.contains { $0.style.reverse && $0.character != " " && !$0.style.bold })
    }

    @Test func scrollPositionShowsWhenRowsDoNotFit() {
        var state = F.state()
        state.selectedIndex = 6
        let frame = F.render(state, columns: 100, rows: 10, scrolledTo: 4)
        #expect(frame.lines[1].hasSuffix("5-10 of 12 "))
        #expect(frame.lines[2].hasPrefix(" MSFT     β Beta Demo"))
    }

    /// The view scrolls as little as needed to keep the selected row on screen (TableViewport): nothing
    /// about the height travels back to the app state.
    @Test func theViewScrollsToTheSelectedRow() {
        var state = F.state()
        state.selectedIndex = 11
        var viewport = TableViewport()
        let size = ScreenSize(columns: 100, rows: 10)
        let frame = WatchlistScreen.render(state, size: size, now: F.now, options: F.utc, viewport: &viewport)
        #expect(frame.lines[1].hasSuffix("7-12 of 12 "))
        #expect(frame.lines[7].hasPrefix(" ZZZZ     γ Gamma Flaky"))
        #expect(viewport.offset == 6)
        // Moving up within the page keeps the view still; past its top, it follows.
        state.selectedIndex = 7
        _ = WatchlistScreen.render(state, size: size, now: F.now, options: F.utc, viewport: &viewport)
        #expect(viewport.offset == 6)
        state.selectedIndex = 2
        _ = WatchlistScreen.render(state, size: size, now: F.now, options: F.utc, viewport: &viewport)
        #expect(viewport.offset == 2)
        // A taller terminal fills the freed rows from above.
        _ = WatchlistScreen.render(state, size: ScreenSize(columns: 100, rows: 30), now: F.now, options: F.utc, viewport: &viewport)
        #expect(viewport.offset == 0)
    }

    /// At 60 columns the position does not fit beside the headings, so the header shows it instead.
    @Test func scrollPositionMovesToTheHeaderWhenTheHeadingsFillTheRow() {
        var state = F.state()
        state.selectedIndex = 6
        let frame = F.render(state, columns: 60, rows: 10, scrolledTo: 4)
        #expect(frame.lines[0].contains("rows 5-10 of 12"), "\(frame.lines[0])")
    }
}
