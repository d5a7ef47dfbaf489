import Domain
import Foundation
import PaperTrading
import Stores
import Testing

/// Refusals, the ledger across restarts and damage, day-order expiry.
@Suite struct PaperBrokerLedgerTests {
    @Test func refusesWhatTheAccountCannotCoverAndWritesNothing() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("AAPL", bid: "187.50", ask: "187.52", last: "187.51"))
        let (broker, events) = try await rig.start(rig.settings(startingCash: 10_000, commissionPerShare: try d("0.01"), minimum: 1))
        let linesAtStart = try rig.ledgerLines().count

        // Cash: 100 × 187.52 + 1 commission is more than 10,000.
        await #expect(throws: BrokerError.insufficientBuyingPower("needs $18753.00 with commission, buying power is $10000.00")) {
            try await broker.place(try order(.buy, 100))
        }
        // Shares: none held.
        await #expect(throws: BrokerError.orderRejected(reason: PaperRefusal.insufficientShares(symbol: "AAPL", wanted: 5, available: 0).description)) {
            try await broker.place(try order(.sell, 5))
        }
        // Short sales are off unless the config allows them.
        await #expect(throws: BrokerError.orderRejected(reason: "selling AAPL short is off; set allowShort in the paper broker's config to allow it")) {
            try await broker.place(try order(.sellShort, 5))
        }
        #expect(try rig.ledgerLines().count == linesAtStart)
        #expect(try await broker.orders(status: .all).isEmpty)

        // Shares held but promised to an open sell cannot be sold twice.
        _ = try #require(await events.fill(of: try await broker.place(try order(.buy, 10)).id))
        _ = try await broker.place(try order(.sell, 10, .limit(200)))
        await #expect(throws: BrokerError.orderRejected(reason: "selling 1 AAPL but no AAPL shares are free to sell (none held, or open orders hold them)")) {
            try await broker.place(try order(.sell, 1))
        }
        await broker.stop()
    }

    @Test func shortSalesFillWhenAllowed() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("TSLA", bid: "250.00", ask: "250.10", last: "250.05"))
        let (broker, events) = try await rig.start(rig.settings(allowShort: true))
        let short = try await broker.place(try order(.sellShort, 10, symbol: "TSLA"))
        #expect(try #require(await events.fill(of: short.id)).fill.price == 250)
        await rig.feed.send(quote("TSLA", bid: "240.00", ask: "240.10", last: "240.05"))
        let cover = try await broker.place(try order(.buyToCover, 10, symbol: "TSLA"))
        #expect(try #require(await events.fill(of: cover.id)).fill.price == (try d("240.1")))
        #expect(await broker.account().realizedPnL == 99)
        await broker.stop()
    }

    @Test func aRestartReplaysTheSameAccountOrdersAndFills() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("AAPL", bid: "100.00", ask: "100.02", last: "100.01"))
        rig.feed.cache(quote("MSFT", bid: "400.00", ask: "400.04", last: "400.02"))
        let settings = rig.settings(commissionPerShare: try d("0.005"), minimum: 1)
        let (first, events) = try await rig.start(settings)
        _ = try #require(await events.fill(of: try await first.place(try order(.buy, 30)).id))
        _ = try #require(await events.fill(of: try await first.place(try order(.buy, 7, symbol: "MSFT")).id))
        await rig.feed.send(quote("AAPL", bid: "110.00", ask: "110.02", last: "110.01"))
        _ = try #require(await events.fill(of: try await first.place(try order(.sell, 12)).id))
        let open = try await first.place(try order(.buy, 5, .limit(90), timeInForce: .gtc))
        let cancelled = try await first.place(try order(.buy, 5, .limit(80), timeInForce: .gtc))
        try await first.cancel(id: cancelled.id)
        let before = (account: await first.account(), positions: try await first.positions(),
                      orders: try await first.orders(status: .all), fills: try await first.fills(since: .distantPast))
        await first.stop()

        // Another config's starting cash does not rewrite an account that has traded.
        var restartSettings = settings
        restartSettings.startingCash = 1
        let (second, _) = try await rig.start(restartSettings)
        // The same last prices as before the restart, so the positions are valued alike.
        await rig.feed.send([quote("AAPL", bid: "110.00", ask: "110.02", last: "110.01"), quote("MSFT", bid: "400.00", ask: "400.04", last: "400.02")])
        let after = (account: await second.account(), positions: try await second.positions(),
                     orders: try await second.orders(status: .all), fills: try await second.fills(since: .distantPast))
        #expect(after.account == before.account)
        #expect(after.positions == before.positions)
        #expect(after.orders == before.orders && after.orders.prefix(2).map(\.id) == [cancelled.id, open.id])
        #expect(after.fills == before.fills && after.fills.count == 3)
        // 12 sold at the bid 110.00, bought at the ask 100.02.
        #expect(try after.account.realizedPnL == d("119.76") && after.account.startingCash == 100_000)
        // The open order still works after the restart.
        await rig.feed.send(quote("AAPL", bid: "89.90", ask: "89.95", last: "89.92"))
        #expect(try await second.orders(status: .open).isEmpty)
        await second.stop()
    }

    @Test func aTornLastLineIsDroppedWithANoticeAndTheRestReplays() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("AAPL", bid: "100.00", ask: "100.02", last: "100.01"))
        let (first, events) = try await rig.start()
        _ = try #require(await events.fill(of: try await first.place(try order(.buy, 10)).id))
        await first.stop()
        let intact = try rig.ledgerLines()
        // What kill -9 in the middle of an append leaves: part of a line, no newline.
        let handle = try FileHandle(forWritingTo: rig.ledgerURL)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"seq":4,"crc":"0badf00d","rec":{"type":"placed","ord"#.utf8))
        try handle.close()

        let (second, secondEvents) = try await rig.start()
        let notice = try #require(await secondEvents.first { if case .notice = $0 { true } else { false } })
        guard case .notice(let text) = notice else { return }
        #expect(text.contains("incomplete line 4") && text.contains("dropped"))
        #expect(try await second.positions().map(\.quantity) == [10])
        #expect(try rig.ledgerLines() == intact)
        // The next line takes the torn one's number.
        let next = try await second.place(try order(.buy, 1, .limit(50)))
        #expect(next.id == OrderID("P-4"))
        await second.stop()
    }

    @Test func aDamagedMiddleLineStopsTheStartNamingItAndKeepsTheFile() async throws {
        let rig = try PaperRig()
        rig.feed.cache(quote("AAPL", bid: "100.00", ask: "100.02", last: "100.01"))
        let (first, events) = try await rig.start()
        _ = try #require(await events.fill(of: try await first.place(try order(.buy, 10)).id))
        await first.stop()
        var lines = try rig.ledgerLines()
        #expect(lines.count == 3)
        // A changed digit in line 2's record: its checksum no longer matches.
        lines[1] = lines[1].replacingOccurrences(of: #""quantity":"10""#, with: #""quantity":"19""#)
        let damaged = Data((lines.joined(separator: "\n") + "\n").utf8)
        try damaged.write(to: rig.ledgerURL)

        await #expect {
            _ = try await rig.start()
        } throws: { error in
            guard let error = error as? PaperBrokerError, case .ledger(.corrupt(line: 2, _, _)) = error else { return false }
            return error.description.hasPrefix("paper trading is off: the ledger ") && error.description.contains("line 2")
                && error.description.contains("another ledger file")
        }
        #expect(try Data(contentsOf: rig.ledgerURL) == damaged)
    }

    @Test func anIntactLineThatContradictsTheLedgerStopsTheStartToo() async throws {
        let rig = try PaperRig()
        let journal = try Journal<PaperLedgerRecord>(url: rig.ledgerURL)
        let time = PaperRig.wednesdayMorning
        try journal.append(contentsOf: [
            .accountOpened(PaperAccountOpened(startingCash: 1_000, time: time)),
            .cancelled(PaperOrderCancelled(orderID: OrderID("P-9"), time: time)),
        ])
        await #expect(throws: PaperBrokerError.inconsistent(
            PaperLedgerInconsistency(line: 2, reason: "it is about order P-9, which no earlier line placed"), path: rig.ledgerURL.path)) {
            _ = try await rig.start()
        }
    }

    @Test func dayOrdersExpireAtTheSessionsClose() async throws {
        let rig = try PaperRig(start: WallClock.newYork(2026, 11, 25, 15))
        rig.feed.cache(quote("AAPL", bid: "100.00", ask: "100.02", last: "100.01"))
        let (broker, events) = try await rig.start()
        let day = try await broker.place(try order(.buy, 10, .limit(90)))
        let gtc = try await broker.place(try order(.buy, 10, .limit(90), timeInForce: .gtc))
        #expect(await broker.account().buyingPower == 98_200)

        rig.wall.set(WallClock.newYork(2026, 11, 25, 15, 59, 59))
        await broker.refresh()
        #expect(try await broker.orders(status: .open).count == 2)
        rig.wall.set(WallClock.newYork(2026, 11, 25, 16))
        await broker.refresh()
        let expired = try #require(await events.first { if case .expired = $0 { true } else { false } })
        #expect(expired == .expired(try #require(try await broker.orders(status: .closed).first)))
        #expect(try await broker.orders(status: .open).map(\.id) == [gtc.id])
        #expect(try await broker.orders(status: .closed).map(\.id) == [day.id])
        #expect(await broker.account().buyingPower == 99_100)
        await broker.stop()
    }

    @Test func aDayOrderPlacedAfterTheCloseWaitsForTheNextSession() async throws {
        // Wednesday evening before Thanksgiving: the next session is Friday's.
        let rig = try PaperRig(start: WallClock.newYork(2026, 11, 25, 17))
        rig.feed.cache(quote("AAPL", bid: "100.00", ask: "100.02", last: "100.01"))
        let (broker, events) = try await rig.start()
        let placed = try await broker.place(try order(.buy, 10))
        rig.wall.set(WallClock.newYork(2026, 11, 26, 9, 30))
        await rig.feed.send(quote("AAPL", bid: "100.50", ask: "100.52", last: "100.51"))
        #expect(try await broker.orders(status: .open).map(\.id) == [placed.id], "filled on Thanksgiving")
        rig.wall.set(WallClock.newYork(2026, 11, 27, 9, 30))
        await rig.feed.send(quote("AAPL", bid: "101.00", ask: "101.02", last: "101.01"))
        #expect(try #require(await events.fill(of: placed.id)).fill.price == (try d("101.02")))
        await broker.stop()
    }
}
