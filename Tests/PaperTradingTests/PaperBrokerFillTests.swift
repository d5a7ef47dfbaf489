import Domain
import Foundation
import PaperTrading
import Testing

/// Each order type placed with the paper broker and filled (or not) by the quotes of its source.
@Suite struct PaperBrokerFillTests {
    @Test func marketBuyFillsAtTheAskOfTheSourceOnly() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("AAPL", bid: "187.50", ask: "187.52", last: "187.51"))
        // Another broker quotes lower: the paper broker must not look at it.
        rig.feed.cache(quote("AAPL", bid: "180.00", ask: "180.01", last: "180.00"), from: FakeMarketFeed.other.id)
        let (broker, events) = try await rig.start(rig.settings(commissionPerShare: try d("0.005"), minimum: 1))

        let placed = try await broker.place(try order(.buy, 10))
        #expect(placed.status == .filled && placed.id == OrderID("P-2"))
        let filled = try #require(await events.fill(of: placed.id))
        #expect(try filled.fill.price == d("187.52") && filled.fill.priceSource == .ask)
        #expect(filled.fill.commission == 1 && filled.fill.quantity == 10 && filled.fill.id == FillID("F-3"))
        #expect(try filled.order.status == .filled && filled.order.averageFillPrice == d("187.52"))
        #expect(filled.line == 3)

        let account = await broker.account()
        #expect(try account.cash == d("98123.8"))  // 100,000 − 1,875.20 − 1
        let positions = try await broker.positions()
        #expect(positions.count == 1)
        #expect(try positions.first?.quantity == 10 && positions.first?.averageCost == d("187.52"))
        // Valued at the source's last trade.
        #expect(try positions.first?.lastPrice == d("187.51") && positions.first?.unrealizedPnL == d("-0.1"))
        await broker.stop()
    }

    @Test func marketSellFillsAtTheBidAndAtTheLastTradeWhenThereIsNoBid() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("MSFT", bid: "410.10", ask: "410.20", last: "410.15"))
        let (broker, events) = try await rig.start()
        let bought = try await broker.place(try order(.buy, 5, symbol: "MSFT"))
        _ = try #require(await events.fill(of: bought.id))

        // The source now sends trades only.
        await rig.feed.send(quote("MSFT", bid: nil, ask: nil, last: "412.00"))
        let sold = try await broker.place(try order(.sell, 5, symbol: "MSFT"))
        let fill = try #require(await events.fill(of: sold.id)).fill
        #expect(fill.price == 412 && fill.priceSource == .lastTrade)
        #expect(try await broker.positions().isEmpty)
        let account = await broker.account()
        // Bought 5 at the ask 410.20, sold 5 at the last trade 412.00.
        #expect(account.realizedPnL == 9 && account.cash == 100_009)
        await broker.stop()
    }

    @Test func limitBuyWaitsUntilTheAskReachesItThenFillsAtTheBetterPrice() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("NVDA", bid: "140.00", ask: "140.05", last: "140.02"))
        let (broker, events) = try await rig.start()
        let placed = try await broker.place(try order(.buy, 100, .limit(try d("139.50")), symbol: "NVDA"))

        await rig.feed.send(quote("NVDA", bid: "139.60", ask: "139.51", last: "139.55"))
        #expect(try await broker.orders(status: .open).map(\.id) == [placed.id])

        // The market gaps through the limit: the fill is at the ask, better than the limit.
        await rig.feed.send(quote("NVDA", bid: "139.10", ask: "139.20", last: "139.15"))
        let fill = try #require(await events.fill(of: placed.id)).fill
        #expect(try fill.price == d("139.2") && fill.priceSource == .ask)
        #expect(try await broker.orders(status: .open).isEmpty)
        await broker.stop()
    }

    @Test func sellLimitFillsWhenTheBidReachesIt() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("SPY", bid: "600.00", ask: "600.02", last: "600.01"))
        let (broker, events) = try await rig.start()
        _ = try #require(await events.fill(of: try await broker.place(try order(.buy, 3, symbol: "SPY")).id))
        let sell = try await broker.place(try order(.sell, 3, .limit(601), symbol: "SPY"))

        await rig.feed.send(quote("SPY", bid: "600.99", ask: "601.01", last: "601.00"))
        #expect(try await broker.orders(status: .open).map(\.id) == [sell.id])
        await rig.feed.send(quote("SPY", bid: "601.00", ask: "601.02", last: "601.01"))
        let fill = try #require(await events.fill(of: sell.id)).fill
        #expect(fill.price == 601 && fill.priceSource == .bid)
        await broker.stop()
    }

    @Test func stopTriggersOnTheLastTradeThenFillsAsAMarketOrder() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("AMD", bid: "120.00", ask: "120.02", last: "120.01"))
        let (broker, events) = try await rig.start()
        let stop = try await broker.place(try order(.buy, 10, .stop(121), symbol: "AMD"))

        // The ask is above the stop, but no trade has printed there: nothing happens.
        await rig.feed.send(quote("AMD", bid: "120.99", ask: "121.05", last: "120.99"))
        #expect(try await broker.orders(status: .open).map(\.id) == [stop.id])

        await rig.feed.send(quote("AMD", bid: "121.00", ask: "121.03", last: "121.02"))
        let fill = try #require(await events.fill(of: stop.id)).fill
        #expect(try fill.price == d("121.03") && fill.priceSource == .ask)
        // Triggered first, then filled on the same quote.
        let stopEvents = events.events.compactMap { event -> String? in
            switch event {
            case .triggered(let order) where order.id == stop.id: "triggered"
            case .filled(let order, _, _) where order.id == stop.id: "filled"
            default: nil
            }
        }
        #expect(stopEvents == ["triggered", "filled"])
        let lines = try rig.ledgerLines()
        #expect(lines.suffix(2).map { $0.contains(#""type":"triggered""#) } == [true, false])
        #expect(lines.last?.contains(#""type":"filled""#) == true)
        await broker.stop()
    }

    @Test func stopLimitTriggersThenWaitsForItsLimit() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("AAPL", bid: "190.00", ask: "190.02", last: "190.01"))
        let (broker, events) = try await rig.start()
        _ = try #require(await events.fill(of: try await broker.place(try order(.buy, 10)).id))
        // Sell if a trade prints at 185 or lower, but not below 184.50.
        let stop = try await broker.place(try order(.sell, 10, .stopLimit(stop: 185, limit: try d("184.5"))))

        await rig.feed.send(quote("AAPL", bid: "184.00", ask: "184.10", last: "184.90"))
        _ = try #require(await events.first { event in
            if case .triggered(let order) = event { return order.id == stop.id }
            return false
        })
        // Triggered, but the bid is below the limit: it now works as a limit order.
        #expect(try await broker.orders(status: .open).map(\.id) == [stop.id])
        await rig.feed.send(quote("AAPL", bid: "184.60", ask: "184.70", last: "184.65"))
        let fill = try #require(await events.fill(of: stop.id)).fill
        #expect(try fill.price == d("184.6") && fill.priceSource == .bid)
        await broker.stop()
    }

    @Test func ordersWaitWhileTheMarketIsClosedAndFillWhenItOpens() async throws {
        // Saturday noon in New York.
        let rig = try PaperRig(start: WallClock.newYork(2026, 11, 28, 12))
        rig.feed.cache(quote("AAPL", bid: "187.50", ask: "187.52", last: "187.51"))
        let (broker, events) = try await rig.start()
        let placed = try await broker.place(try order(.buy, 1, timeInForce: .gtc))
        await rig.feed.send(quote("AAPL", bid: "187.40", ask: "187.45", last: "187.42"))
        #expect(try await broker.orders(status: .open).map(\.id) == [placed.id])

        // Monday 09:30:01.
        rig.wall.set(WallClock.newYork(2026, 11, 30, 9, 30, 1))
        await rig.feed.send(quote("AAPL", bid: "188.00", ask: "188.02", last: "188.01"))
        let fill = try #require(await events.fill(of: placed.id)).fill
        #expect(try fill.price == d("188.02"))
        await broker.stop()
    }

    @Test func marketOrderOnANewSymbolWaitsForTheSourcesFirstQuote() async throws {
        let rig = try PaperRig()
        let (broker, events) = try await rig.start()
        #expect(rig.feed.followedSymbols == [[]])

        async let placing = broker.place(try order(.buy, 2, symbol: "INTC"))
        // The broker follows the symbol to get a price; the quote then arrives.
        await rig.feed.waitUntilFollowed("INTC")
        await rig.feed.send(quote("INTC", bid: "30.00", ask: "30.01", last: "30.00"))
        let placed = try await placing
        let fill = try #require(await events.fill(of: placed.id)).fill
        #expect(try fill.price == d("30.01"))
        #expect(rig.feed.followedSymbols == [["INTC"]])
        await broker.stop()
    }

    @Test func marketOrderIsRefusedWhenNoQuoteComesInTime() async throws {
        let rig = try PaperRig()
        let (broker, _) = try await rig.start()
        let request = try order(.buy, 2, symbol: "ZZZZ")
        let placing = Task { try await broker.place(request) }
        // The periodic refresh and the wait for a quote sleep on the manual clock.
        #expect(await rig.clock.sleepers(atLeast: 2))
        rig.clock.advance(by: rig.settings().quoteWait)
        await #expect(throws: BrokerError.orderRejected(reason: PaperRefusal.noPrice(symbol: "ZZZZ").description)) {
            try await placing.value
        }
        #expect(try await broker.orders(status: .all).isEmpty)
        await broker.stop()
    }

    @Test func cancelEndsAnOpenOrderAndReleasesItsHold() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("AAPL", bid: "187.50", ask: "187.52", last: "187.51"))
        let (broker, events) = try await rig.start()
        let placed = try await broker.place(try order(.buy, 100, .limit(150)))
        #expect(await broker.account().buyingPower == 85_000)
        try await broker.cancel(id: placed.id)
        #expect(await broker.account().buyingPower == 100_000)
        let cancelled = try #require(await events.first { if case .cancelled = $0 { true } else { false } })
        guard case .cancelled(let order) = cancelled else { return }
        #expect(order.id == placed.id && order.status == .cancelled)
        await #expect(throws: BrokerError.orderRejected(reason: "order P-2 is already cancelled")) {
            try await broker.cancel(id: placed.id)
        }
        await broker.stop()
    }

    @Test func replaceCancelsTheOldOrderAndPlacesTheNewOneTogether() async throws {
        let rig = try PaperRig(start: WallClock.newYork(2026, 11, 25, 11))
        rig.feed.cache(quote("AAPL", bid: "187.50", ask: "187.52", last: "187.51"))
        let (broker, events) = try await rig.start(rig.settings(startingCash: 20_000))
        // 100 at 150 holds 15,000: a replacement at 180 (18,000) fits only once that hold is released.
        let old = try await broker.place(try order(.buy, 100, .limit(150)))
        let new = try await broker.replace(id: old.id, try order(.buy, 100, .limit(180)))
        #expect(new.id == OrderID("P-4") && new.status == .accepted)
        let all = try await broker.orders(status: .all)
        #expect(all.map(\.id) == [new.id, old.id] && all.last?.status == .replaced)
        #expect(await broker.account().buyingPower == 2_000)
        _ = events
        await broker.stop()
    }

    @Test func positionsAreRevaluedByTheSourcesLastTrade() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("AAPL", bid: "100.00", ask: "100.00", last: "100.00"))
        rig.feed.cache(quote("MSFT", bid: "200.00", ask: "200.00", last: "200.00"))
        let (broker, events) = try await rig.start()
        _ = try #require(await events.fill(of: try await broker.place(try order(.buy, 10)).id))
        _ = try #require(await events.fill(of: try await broker.place(try order(.buy, 5, symbol: "MSFT")).id))

        await rig.feed.send(quote("AAPL", bid: "109.00", ask: "111.00", last: "110.00"))
        let aapl = try #require(await events.first { event in
            if case .positionChanged(symbol: "AAPL", let position?) = event { return position.lastPrice == 110 }
            return false
        })
        guard case .positionChanged(_, let position?) = aapl else { return }
        #expect(position.unrealizedPnL == 100 && position.marketValue == 1_100 && position.unrealizedPnLPercent == 10)
        let account = await broker.account()
        // Cash 100,000 − 1,000 − 1,000; positions 1,100 + 1,000.
        #expect(account.equity == 100_100 && account.unrealizedPnL == 100)
        await broker.stop()
    }
}
