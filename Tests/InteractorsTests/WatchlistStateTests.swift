import Domain
import Foundation
import Interactors
import Testing

@Suite struct WatchlistStateTests {
    @Test func rowsAreOnePerSymbolAndBrokerSortedBySymbolThenBrandID() {
        let state = WatchlistState(brokers: [beta, alpha], symbols: ["MSFT", "AAPL"], isDemo: true)
        #expect(state.rows.map(\.id) == ["alpha:AAPL", "beta:AAPL", "alpha:MSFT", "beta:MSFT"])
    }

    @Test func sortByChangePercentPutsGainersFirstAndRowsWithoutValueLast() {
        var state = WatchlistState(brokers: [alpha, beta], symbols: ["AAPL", "MSFT", "NVDA"], isDemo: false)
        state.apply(MarketUpdate(quotes: [
            QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 101),  // +1 %
            QuoteKey(brandID: "beta", symbol: "AAPL"): quote("AAPL", 99),    // -1 %
            QuoteKey(brandID: "alpha", symbol: "MSFT"): quote("MSFT", 105),  // +5 %
            QuoteKey(brandID: "beta", symbol: "MSFT"): quote("MSFT", 101),   // +1 %, ties with alpha:AAPL
        ]), receivedAt: t0)
        state.cycleSort()
        #expect(state.sort == .changePercent)
        #expect(state.rows.map(\.id) == ["alpha:MSFT", "alpha:AAPL", "beta:MSFT", "beta:AAPL", "alpha:NVDA", "beta:NVDA"])
        state.cycleSort()
        #expect(state.sort == .last)
        #expect(state.rows.first?.id == "alpha:MSFT")
        state.cycleSort()
        #expect(state.sort == .symbol)
    }

    @Test func selectionFollowsItsRowWhenSortingMovesIt() {
        var state = WatchlistState(brokers: [alpha], symbols: ["AAPL", "MSFT"], isDemo: false)
        state.moveSelection(by: 1)
        #expect(state.selectedRow?.id == "alpha:MSFT")
        state.apply(MarketUpdate(quotes: [
            QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 90),
            QuoteKey(brandID: "alpha", symbol: "MSFT"): quote("MSFT", 120),
        ]), receivedAt: t0)
        state.cycleSort()
        #expect(state.rows.first?.id == "alpha:MSFT")
        #expect(state.selectedRow?.id == "alpha:MSFT")
    }

    @Test func scrollingKeepsTheSelectionVisible() {
        let symbols = (0..<30).map { "S\($0 < 10 ? "0" : "")\($0)" }
        var state = WatchlistState(brokers: [alpha], symbols: symbols, isDemo: false)
        state.setVisibleRows(10)
        state.moveSelection(by: 12)
        #expect(state.selectedIndex == 12)
        #expect(state.scrollOffset == 3)
        state.page(down: true)
        #expect(state.selectedIndex == 21)
        #expect(state.scrollOffset == 12)
        state.moveSelection(toTop: false)
        #expect(state.selectedIndex == 29)
        #expect(state.scrollOffset == 20)
        state.moveSelection(toTop: true)
        #expect(state.selectedIndex == 0)
        #expect(state.scrollOffset == 0)
        state.page(down: false)
        #expect(state.selectedIndex == 0)
    }

    @Test func rowErrorsExplainMissingPrices() {
        var state = WatchlistState(brokers: [alpha, beta], symbols: ["AAPL", "ZZZZ"], isDemo: true)
        state.apply(MarketUpdate(
            quotes: [QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 101)],
            failures: [QuoteKey(brandID: "alpha", symbol: "ZZZZ"): .unknownSymbol("ZZZZ")],
            brokerStates: ["beta": .reconnecting(attempt: 3, reason: "dropped")]
        ), receivedAt: t0)
        let byID = Dictionary(uniqueKeysWithValues: state.rows.map { ($0.id, $0) })
        #expect(byID["alpha:AAPL"]?.error == nil)
        #expect(byID["alpha:ZZZZ"]?.error == "unknown symbol")
        #expect(byID["beta:AAPL"]?.error == "reconnecting 3…")
        state.apply(MarketUpdate(brokerStates: ["beta": .failed(reason: "unauthorized, check KEY")]), receivedAt: t0)
        #expect(state.rows.first { $0.id == "beta:ZZZZ" }?.error == "failed: unauthorized, check KEY")
    }

    @Test func skippedFrameCountsReachTheFooterState() {
        var state = WatchlistState(brokers: [alpha, beta], symbols: ["AAPL"], isDemo: false)
        state.apply(MarketUpdate(brokerStates: ["alpha": .live], skippedFrames: ["alpha": 3]), receivedAt: t0)
        #expect(state.viewState().brokers.map(\.skippedFrames) == [3, 0])
    }

    @Test func aLateSnapshotDoesNotOverwriteANewerStreamedQuote() {
        var state = WatchlistState(brokers: [alpha], symbols: ["AAPL"], isDemo: false)
        let key = QuoteKey(brandID: "alpha", symbol: "AAPL")
        state.apply(MarketUpdate(quotes: [key: quote("AAPL", 102, at: t0.addingTimeInterval(5))]), receivedAt: t0)
        state.apply(FanOutResult(branding: alpha, results: ["AAPL": .success(quote("AAPL", 99, at: t0))]), receivedAt: t0)
        #expect(state.rows.first?.quote?.last == 102)
    }

    @Test func removingSymbolsDropsTheirRowsAndKeepsTheSelectionInPlace() {
        var state = WatchlistState(brokers: [alpha], symbols: ["AAPL", "MSFT", "NVDA"], isDemo: false)
        state.moveSelection(by: 1)
        state.noteRemoved("MSFT", at: 1)
        state.setSymbols(["AAPL", "NVDA"])
        #expect(state.rows.map(\.id) == ["alpha:AAPL", "alpha:NVDA"])
        #expect(state.selectedRow?.id == "alpha:NVDA")
        #expect(state.popUndo()?.symbol == "MSFT")
        #expect(state.popUndo() == nil)
    }
}

@Suite struct AddSymbolsInputTests {
    @Test func splitsUppercasesAndDeduplicates() {
        #expect(AddSymbolsInput.parse("nvda, tsla nvda,,brk.b", existing: ["AAPL"]) == .add(new: ["NVDA", "TSLA", "BRK.B"], alreadyListed: []))
    }

    @Test func reportsAlreadyListedSymbolsButAddsTheRest() {
        #expect(AddSymbolsInput.parse("aapl msft", existing: ["AAPL"]) == .add(new: ["MSFT"], alreadyListed: ["AAPL"]))
    }

    @Test func rejectsWhenEverythingIsAlreadyListed() {
        #expect(AddSymbolsInput.parse("aapl", existing: ["AAPL"]) == .rejected(reason: "AAPL is already in the watchlist"))
    }

    @Test func rejectsTheWholeInputWhenOneSymbolIsInvalid() {
        guard case .rejected(let reason) = AddSymbolsInput.parse("MSFT ZZ$", existing: []) else {
            Issue.record("expected a rejection")
            return
        }
        #expect(reason.contains("ZZ$"))
        #expect(reason.contains("'$'"))
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
