import Domain
import Foundation
import Testing
import Stores

@Suite struct QuoteStoreTests {
    let aapl = QuoteKey(brandID: "alpha", symbol: "AAPL")
    let aaplBeta = QuoteKey(brandID: "beta", symbol: "AAPL")
    let msft = QuoteKey(brandID: "alpha", symbol: "MSFT")
    let t0 = Date(timeIntervalSince1970: 1_000)

    func quote(_ symbol: String, _ last: ExactDecimal, bid: ExactDecimal? = nil) -> CommonQuote {
        CommonQuote(symbol: symbol, last: last, timestamp: t0, bid: bid)
    }

    @Test func aFirstQuoteHasNoDirectionYet() {
        var store = QuoteStore()
        store.apply(MarketUpdate(quotes: [aapl: quote("AAPL", 190)]), receivedAt: t0)

        let entry = store.entry(for: aapl)
        #expect(entry == QuoteEntry(quote: quote("AAPL", 190), receivedAt: t0))
        #expect(store.history(for: aapl)?.points(since: .distantPast).map(\.price) == [190])
        #expect(store.entry(for: aaplBeta) == nil)
        #expect(store.count == 1)
    }

    @Test func aStreamQuoteKeepsTheSnapshotsPreviousCloseButNotItsVolume() {
        var store = QuoteStore()
        let snapshot = CommonQuote(symbol: "AAPL", last: 190, timestamp: t0, previousClose: 188, volume: 1_000)
        store.record(.success(snapshot), for: aapl, receivedAt: t0)
        store.record(.success(quote("AAPL", 191, bid: exactDecimal("190.9"))), for: aapl, receivedAt: t0 + 1)
        let merged = store.entry(for: aapl)?.quote
        #expect(merged?.last == 191 && merged?.bid == exactDecimal("190.9"))
        #expect(merged?.previousClose == 188)
        #expect(merged?.change == 3)
        #expect(merged?.volume == nil)
        // A quote that brings its own close wins; another key never lends one.
        store.record(.success(CommonQuote(symbol: "AAPL", last: 192, timestamp: t0, previousClose: 189)), for: aapl, receivedAt: t0 + 2)
        #expect(store.entry(for: aapl)?.quote?.previousClose == 189)
        store.record(.success(quote("AAPL", 192)), for: aaplBeta, receivedAt: t0 + 2)
        #expect(store.entry(for: aaplBeta)?.quote?.previousClose == nil)
    }

    @Test func directionAndChangeTimeFollowThePrice() {
        var store = QuoteStore()
        store.record(.success(quote("AAPL", 190)), for: aapl, receivedAt: t0)
        store.record(.success(quote("AAPL", 191)), for: aapl, receivedAt: t0 + 1)
        #expect(store.entry(for: aapl)?.lastChangeDirection == 1)
        #expect(store.entry(for: aapl)?.lastChangeAt == t0 + 1)

        store.record(.success(quote("AAPL", exactDecimal("189.5"))), for: aapl, receivedAt: t0 + 2)
        #expect(store.entry(for: aapl)?.lastChangeDirection == -1)
        #expect(store.entry(for: aapl)?.lastChangeAt == t0 + 2)
    }

    @Test func anUnchangedPriceKeepsDirectionAndChangeTimeButRefreshesTheRest() {
        var store = QuoteStore()
        store.record(.success(quote("AAPL", 190)), for: aapl, receivedAt: t0)
        store.record(.success(quote("AAPL", 191)), for: aapl, receivedAt: t0 + 1)
        store.record(.success(quote("AAPL", 191, bid: exactDecimal("190.9"))), for: aapl, receivedAt: t0 + 5)

        let entry = store.entry(for: aapl)
        #expect(entry?.lastChangeDirection == 1)
        #expect(entry?.lastChangeAt == t0 + 1)
        #expect(entry?.receivedAt == t0 + 5)
        #expect(entry?.quote?.bid == exactDecimal("190.9"))
    }

    @Test func aFailureKeepsTheLastQuoteAndAQuoteClearsTheFailure() {
        var store = QuoteStore()
        store.record(.success(quote("AAPL", 190)), for: aapl, receivedAt: t0)
        store.apply(MarketUpdate(failures: [aapl: .network("reset")]), receivedAt: t0 + 3)

        var entry = store.entry(for: aapl)
        #expect(entry?.error == .network("reset"))
        #expect(entry?.quote == quote("AAPL", 190))
        #expect(entry?.receivedAt == t0, "a failure is not a fresh quote")

        store.record(.success(quote("AAPL", 192)), for: aapl, receivedAt: t0 + 4)
        entry = store.entry(for: aapl)
        #expect(entry?.error == nil)
        #expect(entry?.quote?.last == 192)
        #expect(entry?.lastChangeDirection == 1)
    }

    @Test func aFailureAloneMakesAnEntryWithoutAQuote() {
        var store = QuoteStore()
        store.record(.failure(.unknownSymbol("ZZZZ")), for: QuoteKey(brandID: "alpha", symbol: "ZZZZ"), receivedAt: t0)
        let entry = store.entry(for: QuoteKey(brandID: "alpha", symbol: "ZZZZ"))
        #expect(entry == QuoteEntry(error: .unknownSymbol("ZZZZ")))
    }

    @Test func inOneBatchAQuoteWinsOverAFailureForTheSameRow() {
        var store = QuoteStore()
        store.apply(
            MarketUpdate(quotes: [aapl: quote("AAPL", 190), msft: quote("MSFT", 410)], failures: [aapl: .cancelled]),
            receivedAt: t0)
        #expect(store.entry(for: aapl)?.error == nil)
        #expect(store.entry(for: aapl)?.quote?.last == 190)
        #expect(store.entry(for: msft)?.quote?.last == 410)
        #expect(store.count == 2)
    }

    @Test func keepOnlyForgetsEveryBrokersRowOfTheOtherSymbols() {
        var store = QuoteStore()
        store.apply(
            MarketUpdate(quotes: [aapl: quote("AAPL", 190), aaplBeta: quote("AAPL", exactDecimal("190.1")), msft: quote("MSFT", 410)]),
            receivedAt: t0)
        store.keepOnly(["MSFT"])

        #expect(store.entry(for: aapl) == nil)
        #expect(store.entry(for: aaplBeta) == nil)
        #expect(store.entry(for: msft) != nil)
        #expect(store.count == 1)
    }

    @Test func eachKeyKeepsItsOwnHistoryThroughKeepOnly() {
        var store = QuoteStore()
        for (second, price) in [(0, 190), (1, 191)] {
            store.apply(MarketUpdate(quotes: [aapl: quote("AAPL", ExactDecimal(price)), msft: quote("MSFT", ExactDecimal(price + 220))]),
                        receivedAt: t0.addingTimeInterval(Double(second)))
        }
        store.keepOnly(["MSFT"])
        #expect(store.history(for: msft)?.points(since: .distantPast).map(\.price) == [410, 411])
        #expect(store.history(for: aapl) == nil)
        // Shown again, the symbol starts without its old prices.
        store.apply(MarketUpdate(quotes: [aapl: quote("AAPL", 200)]), receivedAt: t0.addingTimeInterval(2))
        #expect(store.history(for: aapl)?.points(since: .distantPast).map(\.price) == [200])
        #expect(store.history(for: msft)?.count == 2)
    }

    @Test func aKeyWithOnlyAFailureHasNoHistory() {
        var store = QuoteStore()
        store.apply(MarketUpdate(failures: [aapl: .server(status: 500)]), receivedAt: t0)
        #expect(store.entry(for: aapl) != nil)
        #expect(store.history(for: aapl) == nil)
    }
}
