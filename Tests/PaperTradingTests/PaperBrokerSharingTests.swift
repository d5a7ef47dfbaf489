import Domain
import Foundation
import PaperTrading
import Stores
import Testing

/// Two paper brokers on one ledger, as two terminals run them: each with its own feed.
@Suite struct PaperBrokerSharingTests {
    @Test func twoInstancesSeeEachOthersOrdersAndPositions() async throws {
        let rig = try PaperRig()
        let otherFeed = FakeMarketFeed()
        for feed in [rig.feed, otherFeed] { feed.cache(quote("AAPL", bid: "100.00", ask: "100.02", last: "100.01")) }
        let (first, firstEvents) = try await rig.start()
        let (second, secondEvents) = try await rig.start(feed: otherFeed)

        let limit = try await first.place(try order(.buy, 5, .limit(90), timeInForce: .gtc))
        let bought = try await first.place(try order(.buy, 10))
        _ = try #require(await firstEvents.fill(of: bought.id))

        await second.refresh()
        #expect(try await second.orders(status: .all) == (try await first.orders(status: .all)))
        #expect(try await second.positions().map(\.quantity) == [10])
        #expect(await second.account().cash == (await first.account().cash))
        // The other instance's lines arrive as events too.
        _ = try #require(await secondEvents.first { if case .placed(let order) = $0 { order.id == limit.id } else { false } })
        _ = try #require(await secondEvents.fill(of: bought.id))

        // The second instance cancels the first one's order; the first sees it at its next look.
        try await second.cancel(id: limit.id)
        await first.refresh()
        #expect(try await first.orders(status: .open).isEmpty)
        await first.stop()
        await second.stop()
    }

    @Test func anOrderIsFilledOnceWhenBothInstancesSeeAQuoteThatFillsIt() async throws {
        let rig = try PaperRig()
        let otherFeed = FakeMarketFeed()
        let symbols = ["AAPL", "MSFT", "NVDA", "SPY"]
        for feed in [rig.feed, otherFeed] {
            for symbol in symbols { feed.cache(quote(symbol, bid: "100.00", ask: "100.02", last: "100.01")) }
        }
        let (first, _) = try await rig.start()
        let (second, _) = try await rig.start(feed: otherFeed)

        var placed: [OrderID] = []
        for round in 0..<5 {
            let market = symbols.map { quote($0, bid: "100.00", ask: "100.02", last: "100.01") }
            await rig.feed.send(market)
            await otherFeed.send(market)
            // Limit buys below the market, placed by both instances.
            for (index, symbol) in symbols.enumerated() {
                let broker = index % 2 == 0 ? first : second
                placed.append(try await broker.place(try order(.buy, 1, .limit(ExactDecimal(99 - round)), symbol: symbol, timeInForce: .gtc)).id)
            }
            await first.refresh()
            await second.refresh()
            // The market drops through every limit, and both instances hear it at once.
            let drop = symbols.map { quote($0, bid: "\(97 - round)", ask: "\(97 - round).01", last: "\(97 - round)") }
            async let heardByFirst: Void = rig.feed.send(drop)
            async let heardBySecond: Void = otherFeed.send(drop)
            _ = await (heardByFirst, heardBySecond)
        }
        await first.refresh()
        await second.refresh()

        let records = try Journal<PaperLedgerRecord>(url: rig.ledgerURL).readNew().records
        let filledOrders = records.compactMap { record -> OrderID? in
            if case .filled(let fill) = record { return fill.orderID }
            return nil
        }
        #expect(filledOrders.count == placed.count && Set(filledOrders) == Set(placed))
        #expect(try await first.fills(since: .distantPast) == (try await second.fills(since: .distantPast)))
        #expect(try await first.positions().map(\.quantity) == [5, 5, 5, 5])
        #expect(await first.account() == (await second.account()))
        await first.stop()
        await second.stop()
    }

    @Test func thePeriodicRefreshBringsInTheOtherInstancesLines() async throws {
        let rig = try PaperRig()
        let otherFeed = FakeMarketFeed()
        let (first, _) = try await rig.start()
        let (second, secondEvents) = try await rig.start(feed: otherFeed)
        let placed = try await first.place(try order(.buy, 1, .limit(50), timeInForce: .gtc))
        // Both brokers' refresh loops sleep on the manual clock; one interval wakes them.
        #expect(await rig.clock.sleepers(atLeast: 2))
        rig.clock.advance(by: rig.settings().refreshInterval)
        _ = try #require(await secondEvents.first { if case .placed(let order) = $0 { order.id == placed.id } else { false } })
        #expect(try await second.orders(status: .open).map(\.id) == [placed.id])
        await first.stop()
        await second.stop()
    }

    @Test func aLedgerCutShortByAnotherProgramHaltsTradingAndSaysWhy() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("AAPL", bid: "100.00", ask: "100.02", last: "100.01"))
        let (broker, events) = try await rig.start()
        _ = try await broker.place(try order(.buy, 1, .limit(50)))
        try Data().write(to: rig.ledgerURL)

        await broker.refresh()
        let halted = try #require(await events.first { if case .halted = $0 { true } else { false } })
        guard case .halted(let reason) = halted else { return }
        #expect(reason.contains("shorter than the") && reason.contains("restore it, then restart"))
        await #expect(throws: BrokerError.orderRejected(reason: reason)) {
            try await broker.place(try order(.buy, 1, .limit(50)))
        }
        // What it knew stays readable.
        #expect(try await broker.orders(status: .open).count == 1)
        await broker.stop()
        // Stopping ends the events.
        #expect(await events.first { _ in false } == nil)
    }

    @Test func placementsAreJudgedOnTheCashTheOtherInstanceLeft() async throws {
        let rig = try PaperRig()
        let otherFeed = FakeMarketFeed()
        for feed in [rig.feed, otherFeed] { feed.cache(quote("AAPL", bid: "100.00", ask: "100.02", last: "100.01")) }
        let (first, _) = try await rig.start(rig.settings(startingCash: 10_000))
        let (second, _) = try await rig.start(rig.settings(startingCash: 10_000), feed: otherFeed)

        // Each alone fits in 10,000; both do not. The second has not looked at the ledger since the first
        // placed its order, and is refused all the same.
        _ = try await first.place(try order(.buy, 100, .limit(60)))
        await #expect(throws: BrokerError.insufficientBuyingPower("needs $6000.00 with commission, buying power is $4000.00")) {
            try await second.place(try order(.buy, 100, .limit(60)))
        }
        await first.stop()
        await second.stop()
    }
}
