import Domain
import Foundation
import PaperTrading
import Testing

@Suite struct FillRulesTests {
    /// bid 99.98, ask 100.02, last 100.00
    let market: QuoteSnapshot

    init() throws {
        market = try quote(bid: "99.98", ask: "100.02", last: "100.00")
    }

    func decide(_ side: OrderSide, _ type: OrderType, on quote: QuoteSnapshot? = nil, open: Bool = true) -> FillDecision {
        FillRules.decide(side: side, type: type, quote: quote ?? market, marketOpen: open)
    }

    @Test func marketOrdersBuyAtTheAskAndSellAtTheBid() throws {
        #expect(decide(.buy, .market) == .fill(price: try d("100.02"), source: .ask))
        #expect(decide(.buyToCover, .market) == .fill(price: try d("100.02"), source: .ask))
        #expect(decide(.sell, .market) == .fill(price: try d("99.98"), source: .bid))
        #expect(decide(.sellShort, .market) == .fill(price: try d("99.98"), source: .bid))
    }

    @Test(arguments: [
        // Buys need ask ≤ limit and pay the ask; sells need bid ≥ limit and get the bid.
        (OrderSide.buy, "100.05", "100.02"), (.buy, "100.02", "100.02"), (.buy, "100.01", nil),
        (.buyToCover, "100.05", "100.02"), (.buyToCover, "100.01", nil),
        (.sell, "99.95", "99.98"), (.sell, "99.98", "99.98"), (.sell, "99.99", nil),
        (.sellShort, "99.90", "99.98"), (.sellShort, "99.99", nil),
    ] as [(OrderSide, String, String?)])
    func limitOrdersFillWhenTheQuoteReachesTheLimit(_ side: OrderSide, limit: String, fillsAt: String?) throws {
        let expected: FillDecision = try fillsAt.map { .fill(price: try d($0), source: side.isBuy ? .ask : .bid) }
            ?? .noFill(.limitNotReached)
        #expect(decide(side, .limit(try d(limit))) == expected)
    }

    @Test func aGapThroughTheLimitFillsAtTheBetterQuote() throws {
        let gapDown = try quote(bid: "94.98", ask: "95.02", last: "95.00")
        #expect(decide(.buy, .limit(100), on: gapDown) == .fill(price: try d("95.02"), source: .ask))
        let gapUp = try quote(bid: "105.00", ask: "105.04", last: "105.02")
        #expect(decide(.sell, .limit(100), on: gapUp) == .fill(price: 105, source: .bid))
        // A stop gapped through triggers, then fills at the market, below the stop.
        #expect(decide(.sell, .stop(99), on: gapDown) == .triggered(becomes: .market))
        #expect(decide(.sell, .market, on: gapDown) == .fill(price: try d("94.98"), source: .bid))
    }

    @Test(arguments: [
        // Buy stops trigger when last ≥ stop, sell stops when last ≤ stop (last is 100.00).
        (OrderSide.buy, "100", true), (.buy, "100.01", false), (.buyToCover, "99.5", true), (.buyToCover, "101", false),
        (.sell, "100", true), (.sell, "99.99", false), (.sellShort, "100.5", true), (.sellShort, "99", false),
    ] as [(OrderSide, String, Bool)])
    func stopsTriggerOnTheLastTrade(_ side: OrderSide, stop: String, triggers: Bool) throws {
        let stopPrice = try d(stop)
        #expect(decide(side, .stop(stopPrice)) == (triggers ? .triggered(becomes: .market) : .noFill(.stopNotTriggered)))
        let limit = try d("123.45")
        #expect(decide(side, .stopLimit(stop: stopPrice, limit: limit))
            == (triggers ? .triggered(becomes: .limit(limit)) : .noFill(.stopNotTriggered)))
    }

    @Test func aTriggeredStopLimitWorksAsALimitFromThenOn() throws {
        let stopLimit = OrderType.stopLimit(stop: 101, limit: try d("101.50"))
        #expect(decide(.buy, stopLimit, on: try quote(bid: "99.98", ask: "100.02", last: "100")) == .noFill(.stopNotTriggered))
        let spike = try quote(bid: "101.50", ask: "101.60", last: "101.20")
        guard case .triggered(let becomes) = decide(.buy, stopLimit, on: spike) else {
            Issue.record("the stop should trigger at last 101.20")
            return
        }
        #expect(becomes == .limit(try d("101.50")))
        // Same quote: the ask is above the limit, so it waits as a limit order.
        #expect(decide(.buy, becomes, on: spike) == .noFill(.limitNotReached))
        // A later quote below the limit fills it at the ask; the stop no longer matters.
        let dip = try quote(bid: "100.90", ask: "101.40", last: "100.95")
        #expect(decide(.buy, becomes, on: dip) == .fill(price: try d("101.40"), source: .ask))
    }

    @Test func aTriggeredStopWorksAsAMarketOrderOnTheSameQuote() throws {
        let spike = try quote(bid: "101.18", ask: "101.22", last: "101.20")
        #expect(decide(.buy, .stop(101), on: spike) == .triggered(becomes: .market))
        #expect(decide(.buy, .market, on: spike) == .fill(price: try d("101.22"), source: .ask))
    }

    @Test func withoutABidOrAskTheLastTradeStandsInAndSaysSo() throws {
        let lastOnly = try quote(bid: nil, ask: nil, last: "100.00")
        #expect(decide(.buy, .market, on: lastOnly) == .fill(price: 100, source: .lastTrade))
        #expect(decide(.sellShort, .market, on: lastOnly) == .fill(price: 100, source: .lastTrade))
        #expect(decide(.buy, .limit(try d("100.50")), on: lastOnly) == .fill(price: 100, source: .lastTrade))
        #expect(decide(.buy, .limit(99), on: lastOnly) == .noFill(.limitNotReached))
        #expect(decide(.sell, .limit(99), on: lastOnly) == .fill(price: 100, source: .lastTrade))
        // Each side on its own: a bid without an ask still sells at the bid.
        let bidOnly = try quote(bid: "99.90", ask: nil, last: "100.00")
        #expect(decide(.buy, .market, on: bidOnly) == .fill(price: 100, source: .lastTrade))
        #expect(decide(.sell, .market, on: bidOnly) == .fill(price: try d("99.90"), source: .bid))
        // A zero bid or ask means none.
        let zeros = try quote(bid: "0", ask: "0", last: "100.00")
        #expect(zeros.bid == nil && zeros.ask == nil)
        #expect(decide(.buy, .market, on: zeros) == .fill(price: 100, source: .lastTrade))
    }

    @Test func withNoPriceAtAllNothingFills() throws {
        let empty = try quote(bid: nil, ask: nil, last: "0")
        #expect(decide(.buy, .market, on: empty) == .noFill(.noPrice))
        #expect(decide(.sell, .limit(1), on: empty) == .noFill(.noPrice))
        #expect(decide(.buy, .stop(1), on: empty) == .noFill(.noPrice))
    }

    @Test func whileTheMarketIsClosedEveryOrderWaits() throws {
        let types: [OrderType] = [.market, .limit(200), .limit(1), .stop(1), .stop(200), .stopLimit(stop: 1, limit: 200)]
        for side in OrderSide.allCases {
            for type in types {
                #expect(decide(side, type, open: false) == .noFill(.marketClosed), "\(side) \(type)")
            }
        }
        // The same orders are live when it opens, so the closed answer is not a coincidence.
        #expect(decide(.buy, .limit(200)) != .noFill(.marketClosed))
    }

    @Test func dayOrdersExpireAtTheirSessionsClose() throws {
        let close = epoch.addingTimeInterval(3_600)
        let dayOrder = Order(request: try order(.buy, 1, .limit(50)), id: OrderID("o"), status: .accepted, createdAt: epoch, updatedAt: epoch)
        #expect(!FillRules.expires(dayOrder, at: close.addingTimeInterval(-1), sessionClose: close))
        #expect(FillRules.expires(dayOrder, at: close, sessionClose: close))
        #expect(FillRules.expires(dayOrder, at: close.addingTimeInterval(86_400), sessionClose: close))
        var gtc = dayOrder
        gtc.request = try order(.buy, 1, .limit(50), timeInForce: .gtc)
        #expect(!FillRules.expires(gtc, at: close.addingTimeInterval(86_400 * 30), sessionClose: close))
        var filled = dayOrder
        filled.status = .filled
        #expect(!FillRules.expires(filled, at: close, sessionClose: close))
    }

    @Test func takesTheQuotesExactPrices() throws {
        let common = CommonQuote(symbol: "AAPL", last: try d("150.25"), timestamp: epoch, bid: try d("150.24"), ask: try d("150.26"))
        #expect(QuoteSnapshot(common) == (try quote(bid: "150.24", ask: "150.26", last: "150.25")))
        // A side of zero or less is "none" on the feeds: nobody can trade at it.
        let oneSided = QuoteSnapshot(CommonQuote(symbol: "AAPL", last: 1, timestamp: epoch, bid: 0, ask: 2))
        #expect(oneSided.bid == nil && oneSided.ask == 2)
    }
}
