import Domain
import Foundation
import Interactors
import Stores
import TerminalKit
import Testing

@Suite struct DetailTests {
    @Test func enterOpensTheSelectedSymbolAcrossBrokersAndEscReturnsToTheSameRow() {
        var driver = AppStateDriver(brokers: [alpha, beta], symbols: ["AAPL", "MSFT"])
        for (second, price) in [(0.0, ExactDecimal(101)), (1.2, 102), (1.7, 103), (5.0, 99)] {
            driver.now = t0.addingTimeInterval(second)
            driver.apply(MarketUpdate(quotes: [QuoteKey(brandID: "beta", symbol: "MSFT"): quote("MSFT", price)]))
        }
        driver.press(.down, .down, .down)
        #expect(driver.state.selectedRow?.id == "beta:MSFT")
        driver.press(.enter)
        #expect(driver.state.front == .detail(DetailScreen(symbol: "MSFT")))
        let detail = driver.state.viewState().detail
        #expect(detail?.symbol == "MSFT")
        #expect(detail?.entries.map(\.branding.id) == ["alpha", "beta"])
        // One point a second: the later price in a second replaces the earlier one.
        #expect(detail?.entries[1].history.map(\.price) == [101, 103, 99])
        #expect(detail?.entries[1].seenRange == 99...103)
        #expect(detail?.entries[0].history == [])
        driver.press(.escape)
        #expect(driver.state.front == .watchlist)
        #expect(driver.state.viewState().detail == nil)
        #expect(driver.state.selectedRow?.id == "beta:MSFT")
        driver.press(.enter, .enter)
        #expect(driver.state.front == .watchlist, "Enter goes back too")
    }

    @Test func priceHistoryIsBoundedToThirtyMinutesAtOnePointASecond() {
        var history = PriceHistory()
        for second in 0..<(PriceHistory.capacity + 500) {
            history.record(ExactDecimal(second), at: t0.addingTimeInterval(Double(second)))
        }
        #expect(history.count <= PriceHistory.capacity + 60)
        let recent = history.points(since: t0.addingTimeInterval(Double(PriceHistory.capacity + 500 - 10)))
        let expected = (PriceHistory.capacity + 490..<PriceHistory.capacity + 500).map { ExactDecimal($0) }
        #expect(recent.map(\.price) == expected)
        let all = history.points(since: .distantPast).map(\.price)
        #expect(history.range == all.first.flatMap { first in all.last.map { first...$0 } }, "rising prices: oldest to newest")
        // A time before the last point (another clock) updates the last point.
        history.record(-1, at: t0)
        #expect(history.points(since: .distantPast).last?.price == -1)
    }
}
