import Domain
import Foundation
import Interactors
import Stores
import TerminalKit
import Testing

/// `AppState.rowsChanged`: which market events changed only their quotes' rows, so that the frame loop
/// may skip a frame none of those rows is on, and which may have changed more.
@Suite struct RowsChangedTests {
    private static func driver() -> AppStateDriver {
        var driver = AppStateDriver(brokers: [alpha, beta], symbols: ["AAPL", "MSFT"])
        driver.state = AppState(
            brokers: [alpha, beta], symbols: ["AAPL", "MSFT"],
            settings: AppState.Settings(isDemo: true, staleAfter: 30),
            terminalSize: ScreenSize(columns: 100, rows: 30))
        driver.send(.started)
        return driver
    }

    private static let update = MarketUpdate(quotes: [QuoteKey(brandID: "alpha", symbol: "MSFT"): quote("MSFT", 410)])

    /// Sends `event` as the runtime does and says what `rowsChanged` makes of it.
    private static func rows(after event: AppEvent, in driver: inout AppStateDriver) -> MarketUpdate? {
        let effects = driver.send(event)
        return driver.state.rowsChanged(by: event, raising: effects)
    }

    @Test func quotesOnTheTableSortedBySymbolChangeOnlyTheirRows() {
        var driver = Self.driver()
        #expect(Self.rows(after: .market(Self.update), in: &driver) == Self.update)
        let failed = MarketUpdate(failures: [QuoteKey(brandID: "beta", symbol: "AAPL"): .unknownSymbol("AAPL")])
        #expect(Self.rows(after: .market(failed), in: &driver) == failed)
    }

    @Test func aBrokersStateOrFrameCountChangesTheFooter() {
        var driver = Self.driver()
        var states = Self.update
        states.brokerStates = ["alpha": .live]
        #expect(Self.rows(after: .market(states), in: &driver) == nil)
        var skipped = Self.update
        skipped.skippedFrames = ["alpha": 3]
        #expect(Self.rows(after: .market(skipped), in: &driver) == nil)
    }

    @Test func aSortByPriceMovesRowsSoEveryQuoteMayChangeTheTable() {
        var driver = Self.driver()
        driver.press(.character("s"))
        #expect(driver.state.sort != .symbol)
        #expect(Self.rows(after: .market(Self.update), in: &driver) == nil)
    }

    @Test func aScreenInFrontMayShowAnyQuote() {
        var driver = Self.driver()
        driver.press(.enter)
        #expect(driver.state.front != .watchlist)
        #expect(Self.rows(after: .market(Self.update), in: &driver) == nil)
        driver.press(.escape)
        driver.press(.character("?"))
        #expect(Self.rows(after: .market(Self.update), in: &driver) == nil)
    }

    @Test func theFilterPromptIsInFrontOfTheTable() {
        var driver = Self.driver()
        driver.press(.character("/"))
        #expect(driver.state.front != .watchlist)
        #expect(Self.rows(after: .market(Self.update), in: &driver) == nil)
    }

    /// One row per symbol: a quote still changes only its symbol's row.
    @Test func thePerSymbolViewChangesOnlyTheSymbolsRow() {
        var driver = Self.driver()
        driver.press(.character("c"))
        #expect(driver.state.rowMode == .perSymbol)
        #expect(Self.rows(after: .market(Self.update), in: &driver) == Self.update)
    }

    @Test func anAlertThatFiresChangesMoreThanItsRow() {
        var driver = Self.driver()
        driver.press(.character("j"), .character("j"))
        driver.press(.character("!"))
        driver.type(">400")
        driver.press(.enter)
        #expect(driver.state.front == .watchlist)
        #expect(Self.rows(after: .market(Self.update), in: &driver) == nil)
        #expect(driver.state.message?.text.hasPrefix("Alert: MSFT") == true)
    }

    @Test func onlyMarketEventsAreRows() {
        var driver = Self.driver()
        #expect(Self.rows(after: .tick, in: &driver) == nil)
        #expect(Self.rows(after: .key(.character("j")), in: &driver) == nil)
    }
}
