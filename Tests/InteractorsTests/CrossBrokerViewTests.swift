import Domain
import Foundation
import Interactors
import Stores
import TerminalKit
import Testing

/// `c` (one row per symbol across brokers) and `r` (the sort reversed) in the app state (issue 17,
/// items 1 and 7).
@Suite struct CrossBrokerViewTests {
    static func priced(_ symbol: String, _ brand: String, last: ExactDecimal, bid: ExactDecimal? = nil, ask: ExactDecimal? = nil, age: TimeInterval = 0)
        -> (QuoteKey, CommonQuote)
    {
        (QuoteKey(brandID: brand, symbol: symbol),
         CommonQuote(symbol: symbol, last: last, timestamp: t0.addingTimeInterval(-age), bid: bid, ask: ask, previousClose: 100))
    }

    static func driver(tradingBrokers: [TradingBroker] = []) -> AppStateDriver {
        var driver = AppStateDriver(brokers: [alpha, beta], symbols: ["MSFT", "AAPL"], tradingBrokers: tradingBrokers)
        driver.apply(MarketUpdate(quotes: Dictionary(uniqueKeysWithValues: [
            priced("AAPL", "alpha", last: 101, bid: 100, ask: 103, age: 2),
            priced("AAPL", "beta", last: 102, bid: 99, ask: 102, age: 1),
            priced("MSFT", "alpha", last: 90, bid: 89, ask: 91, age: 1),
            priced("MSFT", "beta", last: 91, bid: 90, ask: 92, age: 3),
        ])))
        return driver
    }

    @Test func cTogglesBetweenARowPerBrokerAndARowPerSymbol() {
        var driver = Self.driver()
        #expect(driver.state.rows.count == 4)
        driver.press(.character("c"))
        #expect(driver.state.rowMode == .perSymbol)
        #expect(driver.state.rows.map(\.key.symbol) == ["AAPL", "MSFT"])
        #expect(driver.state.viewState().rows.mode == .perSymbol)
        #expect(driver.state.viewState().rowMode == .perSymbol)
        #expect(driver.state.message?.text.hasPrefix("One row per symbol") == true)
        driver.press(.character("c"))
        #expect(driver.state.rowMode == .perBroker)
        #expect(driver.state.rows.map(\.id) == ["alpha:AAPL", "beta:AAPL", "alpha:MSFT", "beta:MSFT"])
    }

    /// The selection keeps to its symbol both ways, and moving works on the symbol rows.
    @Test func theSelectionStaysOnItsSymbol() {
        var driver = Self.driver()
        driver.press(.end)
        #expect(driver.state.selectedRow?.id == "beta:MSFT")
        driver.press(.character("c"))
        #expect(driver.state.selectedRow?.key.symbol == "MSFT")
        #expect(driver.state.selectedIndex == 1)
        driver.press(.up)
        #expect(driver.state.selectedRow?.key.symbol == "AAPL")
        driver.press(.character("c"))
        #expect(driver.state.selectedRow?.id == "alpha:AAPL")
    }

    @Test func enterOpensTheSymbolsDetailAndDeleteRemovesTheSymbol() {
        var driver = Self.driver()
        driver.press(.character("c"), .down, .enter)
        guard case .detail(let screen) = driver.state.front else {
            Issue.record("Enter should open the detail view")
            return
        }
        #expect(screen.symbol == "MSFT")
        #expect(driver.state.viewState().detail?.entries.count == 2)
        driver.press(.escape, .character("d"))
        #expect(driver.saved == ["AAPL"])
        #expect(driver.state.rows.map(\.key.symbol) == ["AAPL"])
        #expect(driver.state.rowMode == .perSymbol)
    }

    /// A ticket on a symbol row opens at the broker with the best price for its side.
    @Test func aTicketOnASymbolRowOpensAtTheBestPricesBroker() {
        let brokers = [TradingBroker(branding: alpha), TradingBroker(branding: beta)]
        var driver = Self.driver(tradingBrokers: brokers)
        driver.press(.character("c"), .character("B"))
        guard case .ticket(let buy) = driver.state.front else {
            Issue.record("B should open a ticket")
            return
        }
        #expect(buy.symbol == "AAPL" && buy.broker.branding.id == "beta", "beta asks 102, alpha 103")
        driver.press(.escape, .character("S"))
        guard case .ticket(let sell) = driver.state.front else {
            Issue.record("S should open a ticket")
            return
        }
        #expect(sell.broker.branding.id == "alpha", "alpha bids 100, beta 99")
    }

    /// Sorted by last, a symbol row sorts by its freshest source's last: AAPL's is beta's 102.
    @Test func symbolRowsSortByTheFreshestLast() {
        var driver = Self.driver()
        driver.press(.character("c"), .character("s"), .character("s"))
        #expect(driver.state.sort == .last)
        #expect(driver.state.rows.map(\.key.symbol) == ["AAPL", "MSFT"])
        #expect(driver.state.rows.first?.quote?.last == 102)
        driver.press(.character("r"))
        #expect(driver.state.rows.map(\.key.symbol) == ["MSFT", "AAPL"])
    }

    @Test func rReversesTheSortAndANewSortStartsUnreversed() {
        var driver = Self.driver()
        driver.press(.character("r"))
        #expect(driver.state.sortReversed)
        #expect(driver.state.viewState().sortReversed)
        #expect(driver.state.message?.text == "Sorted by symbol, reversed")
        #expect(driver.state.rows.map(\.id) == ["alpha:MSFT", "beta:MSFT", "alpha:AAPL", "beta:AAPL"], "symbols Z to A, brokers still in order")
        driver.press(.character("s"))
        #expect(!driver.state.sortReversed)
        #expect(driver.state.rows.map(\.id) == ["beta:AAPL", "alpha:AAPL", "beta:MSFT", "alpha:MSFT"], "change %: 102 > 101 > 91 > 90")
        driver.press(.character("r"))
        #expect(driver.state.rows.map(\.id) == ["alpha:MSFT", "beta:MSFT", "alpha:AAPL", "beta:AAPL"], "lowest first")
        driver.press(.character("r"))
        #expect(driver.state.rows.map(\.id) == ["beta:AAPL", "alpha:AAPL", "beta:MSFT", "alpha:MSFT"])
    }

    /// Rows without the sorted value stay last whichever way the sort goes.
    @Test func rowsWithoutTheValueStayLastWhenReversed() {
        var driver = AppStateDriver(brokers: [alpha], symbols: ["AAPL", "MSFT", "NVDA"])
        driver.apply(MarketUpdate(quotes: Dictionary(uniqueKeysWithValues: [
            Self.priced("AAPL", "alpha", last: 101), Self.priced("MSFT", "alpha", last: 99),
        ])))
        driver.press(.character("s"), .character("s"), .character("r"))
        #expect(driver.state.rows.map(\.key.symbol) == ["MSFT", "AAPL", "NVDA"])
    }

    @Test func theKeysAreC_andR() {
        #expect(KeyMap.watchlistAction(for: .character("c")) == .toggleCrossBroker)
        #expect(KeyMap.watchlistAction(for: .character("r")) == .reverseSort)
    }

    /// The settings reach the view: the columns, the outlier threshold and the sparkline's window; the
    /// store keeps one sparkline per entry.
    @Test func theSettingsAndSparklinesReachTheView() {
        let state = AppState(
            brokers: [alpha], symbols: ["AAPL"],
            settings: AppState.Settings(isDemo: true, columns: [.symbol, .last, .sparkline], outlierBasisPoints: 25, sparklineMinutes: 5))
        let view = state.viewState()
        #expect(view.columns == [.symbol, .last, .sparkline])
        #expect(view.outlierBasisPoints == 25)
        #expect(view.sparklineMinutes == 5)
        #expect(view.rows.sparklines.count == 1)
        #expect(view.rows.sparklines.first?.window == 300)
        #expect(view.rows.groups.count == 1)
    }
}
