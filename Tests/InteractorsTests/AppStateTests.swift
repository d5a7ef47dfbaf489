import Domain
import Foundation
import Interactors
import Stores
import TerminalKit
import Testing

@Suite struct AppStateTests {
    @Test func rowsAreOnePerSymbolAndBrokerSortedBySymbolThenBrandID() {
        let driver = AppStateDriver(brokers: [beta, alpha], symbols: ["MSFT", "AAPL"])
        #expect(driver.state.rows.map(\.id) == ["alpha:AAPL", "beta:AAPL", "alpha:MSFT", "beta:MSFT"])
    }

    @Test func indexesSortBeforeStocks() {
        let driver = AppStateDriver(symbols: ["ZZZZ", "^GSPC", "AAPL"])
        #expect(driver.state.rows.map(\.key.symbol) == ["^GSPC", "AAPL", "ZZZZ"])
    }

    @Test func sortByChangePercentPutsGainersFirstAndRowsWithoutValueLast() {
        var driver = AppStateDriver(brokers: [alpha, beta], symbols: ["AAPL", "MSFT", "NVDA"])
        driver.apply(MarketUpdate(quotes: [
            QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 101),  // +1 %
            QuoteKey(brandID: "beta", symbol: "AAPL"): quote("AAPL", 99),    // -1 %
            QuoteKey(brandID: "alpha", symbol: "MSFT"): quote("MSFT", 105),  // +5 %
            QuoteKey(brandID: "beta", symbol: "MSFT"): quote("MSFT", 101),   // +1 %, ties with alpha:AAPL
        ]))
        driver.press(.character("s"))
        #expect(driver.state.sort == .changePercent)
        #expect(driver.state.message?.text == "Sorted by change %")
        #expect(driver.state.rows.map(\.id) == ["alpha:MSFT", "alpha:AAPL", "beta:MSFT", "beta:AAPL", "alpha:NVDA", "beta:NVDA"])
        driver.press(.character("s"))
        #expect(driver.state.sort == .last)
        #expect(driver.state.rows.first?.id == "alpha:MSFT")
        driver.press(.character("s"))
        #expect(driver.state.sort == .symbol)
    }

    @Test func selectionFollowsItsRowWhenSortingMovesIt() {
        var driver = AppStateDriver(symbols: ["AAPL", "MSFT"])
        driver.press(.down)
        #expect(driver.state.selectedRow?.id == "alpha:MSFT")
        driver.apply(MarketUpdate(quotes: [
            QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 90),
            QuoteKey(brandID: "alpha", symbol: "MSFT"): quote("MSFT", 120),
        ]))
        driver.press(.character("s"))
        #expect(driver.state.rows.first?.id == "alpha:MSFT")
        #expect(driver.state.selectedRow?.id == "alpha:MSFT")
    }

    /// A page is what the terminal shows; the view, not the state, decides the scroll position.
    @Test func pagingMovesByTheTerminalsHeight() {
        let symbols = (0..<30).map { "S\($0 < 10 ? "0" : "")\($0)" }
        var driver = AppStateDriver(symbols: symbols, terminalSize: ScreenSize(columns: 100, rows: 15))
        driver.press(.pageDown)
        #expect(driver.state.selectedIndex == 10)
        driver.send(.resize(ScreenSize(columns: 100, rows: 25)))
        driver.press(.pageDown)
        #expect(driver.state.selectedIndex == 29, "20 rows a page, clamped to the last row")
        driver.press(.character("g"))
        #expect(driver.state.selectedIndex == 0)
        driver.press(.pageUp)
        #expect(driver.state.selectedIndex == 0)
        driver.press(.end)
        #expect(driver.state.selectedIndex == 29)
    }

    @Test func rowErrorsExplainMissingPrices() {
        var driver = AppStateDriver(brokers: [alpha, beta], symbols: ["AAPL", "ZZZZ"])
        driver.apply(MarketUpdate(
            quotes: [QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 101)],
            failures: [QuoteKey(brandID: "alpha", symbol: "ZZZZ"): .unknownSymbol("ZZZZ")],
            brokerStates: ["beta": .reconnecting(attempt: 3, reason: "dropped")]
        ))
        let byID = Dictionary(uniqueKeysWithValues: driver.state.rows.map { ($0.id, $0) })
        #expect(byID["alpha:AAPL"]?.error == nil)
        #expect(byID["alpha:ZZZZ"]?.error == "unknown symbol")
        #expect(byID["beta:AAPL"]?.error == "reconnecting 3…")
        driver.apply(MarketUpdate(brokerStates: ["beta": .retrying(at: t0.addingTimeInterval(30), after: .rateLimited(retryAfter: 30))]))
        #expect(driver.state.rows.first { $0.id == "beta:ZZZZ" }?.error == "retrying: rate limited")
        #expect(driver.state.rows.first { $0.id == "alpha:AAPL" }?.error == nil)
        driver.apply(MarketUpdate(brokerStates: ["beta": .failed(reason: "unauthorized, check KEY")]))
        #expect(driver.state.rows.first { $0.id == "beta:ZZZZ" }?.error == "failed: unauthorized, check KEY")
    }

    @Test func skippedFrameCountsReachTheFooterState() {
        var driver = AppStateDriver(brokers: [alpha, beta], symbols: ["AAPL"])
        driver.apply(MarketUpdate(brokerStates: ["alpha": .live], skippedFrames: ["alpha": 3]))
        #expect(driver.state.viewState().brokers.map(\.skippedFrames) == [3, 0])
    }

    @Test func removingSelectsTheRowThatTakesItsPlaceAndUndoBringsItBack() {
        var driver = AppStateDriver(symbols: ["AAPL", "MSFT", "NVDA"])
        driver.send(.started)
        driver.press(.down)
        #expect(driver.press(.character("d")) == [.unfollow(["MSFT"])])
        #expect(driver.state.rows.map(\.id) == ["alpha:AAPL", "alpha:NVDA"])
        #expect(driver.state.selectedRow?.id == "alpha:NVDA")
        #expect(driver.press(.character("u")) == [.follow(["MSFT"]), .fetchSnapshot(["MSFT"])])
        #expect(driver.saved == ["AAPL", "MSFT", "NVDA"])
        #expect(driver.state.selectedRow?.id == "alpha:MSFT")
        driver.press(.character("u"))
        #expect(driver.state.message?.text == "Nothing to undo")
    }

    @Test func startingFollowsTheListAndAsksForASnapshot() {
        var driver = AppStateDriver(symbols: ["AAPL", "MSFT"])
        #expect(driver.send(.started) == [.follow(["AAPL", "MSFT"]), .fetchSnapshot(["AAPL", "MSFT"])])
        #expect(driver.state.followed == ["AAPL", "MSFT"])
    }

    @Test func addingFollowsAndFetchesOnlyTheNewSymbols() {
        var driver = AppStateDriver(symbols: ["AAPL"])
        driver.send(.started)
        #expect(driver.add("nvda, msft aapl") == [.follow(["NVDA", "MSFT"]), .fetchSnapshot(["NVDA", "MSFT"])])
        #expect(driver.state.message?.text == "Added NVDA, MSFT (already listed: AAPL)")
        #expect(driver.state.front == .watchlist)
        #expect(driver.state.selectedRow?.key.symbol == "NVDA", "the first added symbol is selected")
    }

    @Test func aFailedSaveReopensThePromptWithWhatWasTyped() {
        var state = AppState(brokers: [alpha], symbols: [], settings: AppState.Settings(isDemo: false))
        for key: KeyPress in [.character("a"), .character("i"), .character("b"), .character("m"), .enter] {
            _ = state.update(.key(key), at: t0)
        }
        let error = WatchlistStoreError(operation: .write, path: "/ro/watchlist.json", reason: "Read-only file system")
        _ = state.update(.persisted(.add(["IBM"], to: "Watchlist"), .failure(error)), at: t0)
        guard case .adding(let prompt) = state.front, let reason = prompt.error else {
            Issue.record("the prompt should be open again: \(state.front)")
            return
        }
        #expect(prompt.text == "ibm")
        #expect(reason.hasPrefix("not saved: "))
        #expect(reason.contains("/ro/watchlist.json"))
    }
}

@Suite struct AddSymbolsInputTests {
    @Test func splitsUppercasesAndDeduplicates() {
        #expect(AddSymbolsInput.parse("nvda, tsla nvda,,brk.b", existing: ["AAPL"]) == .add(new: ["NVDA", "TSLA", "BRK.B"], alreadyListed: [], invalid: []))
    }

    @Test func reportsAlreadyListedSymbolsButAddsTheRest() {
        #expect(AddSymbolsInput.parse("aapl msft", existing: ["AAPL"]) == .add(new: ["MSFT"], alreadyListed: ["AAPL"], invalid: []))
    }

    @Test func rejectsWhenEverythingIsAlreadyListed() {
        #expect(AddSymbolsInput.parse("aapl", existing: ["AAPL"]) == .rejected(reason: "AAPL is already in the watchlist"))
    }

    /// Invalid parts are treated like duplicates: the valid symbols are added, the rest named with why.
    @Test func addsTheValidSymbolsAndNamesTheInvalidOnesWithTheirReason() {
        guard case .add(let new, let listed, let invalid) = AddSymbolsInput.parse("tsla $$$ aapl", existing: ["AAPL"]) else {
            Issue.record("expected TSLA to be added")
            return
        }
        #expect(new == ["TSLA"])
        #expect(listed == ["AAPL"])
        #expect(invalid.map(\.text) == ["$$$"])
        #expect(invalid.first?.reason == "$$$ contains '$'; use letters, digits, . - / ^")
    }

    @Test func rejectsWhenNothingIsValid() {
        guard case .rejected(let reason) = AddSymbolsInput.parse("ZZ$ aapl", existing: ["AAPL"]) else {
            Issue.record("expected a rejection")
            return
        }
        #expect(reason == "ZZ$ contains '$'; use letters, digits, . - / ^ · AAPL is already in the watchlist")
    }

    /// The error quotes the input as typed: not upper-cased, and escaped.
    @Test func quotesTheInvalidPartAsTypedAndEscaped() {
        guard case .rejected(let reason) = AddSymbolsInput.parse("a\u{1B}[31mb", existing: []) else {
            Issue.record("expected a rejection")
            return
        }
        #expect(reason == "a\\u{1b}[31mb contains '\\u{1b}'; use letters, digits, . - / ^")
    }

    @Test func rejectsTooLongAndEmptyInput() {
        #expect(AddSymbolsInput.parse("   ", existing: []) == .rejected(reason: "type one or more symbols, e.g. AAPL MSFT"))
        guard case .rejected(let reason) = AddSymbolsInput.parse("ABCDEFGHIJKLMNOP", existing: []) else {
            Issue.record("expected a rejection")
            return
        }
        #expect(reason.contains("longer than 15"))
    }
}
