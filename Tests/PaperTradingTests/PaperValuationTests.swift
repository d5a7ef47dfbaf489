import Domain
import Foundation
import PaperTrading
import Testing

@Suite struct PaperValuationTests {
    func account() throws -> PaperAccount {
        var account = PaperAccount(configuration: .init(startingCash: 100_000, allowShort: true))
        try account.apply(fill(.buy, 10, at: 100, symbol: "AAPL", orderID: "1"))
        try account.apply(fill(.buy, 4, at: 250, symbol: "MSFT", orderID: "2"))
        try account.apply(fill(.sellShort, 5, at: 40, symbol: "INTC", orderID: "3"))
        return account
    }

    @Test func aPriceRevaluesItsSymbolAndKeepsTheTotalsOfAFullRevaluation() throws {
        let account = try account()
        var valuation = PaperValuation(brokerID: "paper")
        valuation.revalueAll(account: account)
        // Nothing priced yet: positions count at cost, so equity is the starting cash.
        #expect(valuation.summary(of: account).equity == 100_000 && valuation.summary(of: account).unrealizedPnL == 0)

        valuation.price("AAPL", last: 110, account: account)
        valuation.price("INTC", last: 44, account: account)
        let msftBefore = valuation.position("MSFT")
        let aapl = valuation.price("AAPL", last: try d("112.5"), account: account)
        #expect(aapl?.unrealizedPnL == 125 && valuation.position("MSFT") == msftBefore)

        // The running totals agree with valuing everything afresh at the same prices.
        var fresh = PaperValuation(brokerID: "paper")
        fresh.price("AAPL", last: try d("112.5"), account: account)
        fresh.price("INTC", last: 44, account: account)
        fresh.revalueAll(account: account)
        let summary = valuation.summary(of: account)
        #expect(summary == fresh.summary(of: account))
        // Cash 100,000 − 1,000 − 1,000 + 200; AAPL 1,125, MSFT at cost 1,000, INTC −220.
        #expect(summary.equity == 100_105 && summary.unrealizedPnL == 105)
        #expect(valuation.allPositions.map(\.symbol) == ["AAPL", "INTC", "MSFT"])
    }

    @Test func aPriceOfZeroIsNoPriceAndAFlatSymbolHasNoPosition() throws {
        var account = try account()
        var valuation = PaperValuation(brokerID: "paper")
        valuation.revalueAll(account: account)
        #expect(valuation.price("AAPL", last: 0, account: account)?.lastPrice == nil)
        try account.apply(fill(.sell, 10, at: 120, symbol: "AAPL", orderID: "4"))
        #expect(valuation.revalue("AAPL", account: account) == nil && !valuation.heldSymbols.contains("AAPL"))
        #expect(valuation.summary(of: account).realizedPnL == 200)
    }
}
