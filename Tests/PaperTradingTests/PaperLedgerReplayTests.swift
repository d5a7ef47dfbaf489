import Domain
import Foundation
import Testing
@testable import PaperTrading

/// What makes applying a long ledger fast must not show: orders found by the number in their id, and
/// the hold of the order placed on the last line taken only when the next line is not its fill.
@Suite struct PaperLedgerReplayTests {
    @Test func findsOrdersByTheNumberInTheirIdOrByTheWholeId() {
        var index = PaperOrderIndex()
        let ids = ["P-2", "P-3", "P-10", "P-02", "p-4", "P-", "P", "", "X-5", "P-99", "P-1a", "P-0", "🙂", "P-123456789012345678901"]
        for (position, id) in ids.enumerated() {
            // "P-99" is beyond its line: a hand-edited ledger, kept by id.
            #expect(index.insert(OrderID(id), at: position, placedOn: 10 + position) == nil, "\(id)")
        }
        for (position, id) in ids.enumerated() {
            #expect(index[OrderID(id)] == position, "\(id)")
            #expect(index.insert(OrderID(id), at: 100, placedOn: 100) == position, "\(id) a second time")
        }
        for unknown in ["P-4", "P-11", "P-1", "P-20", "p-2", "P-3 "] {
            #expect(index[OrderID(unknown)] == nil, "\(unknown)")
        }
    }

    /// Seeded ledgers of market and limit orders, filled on the next line or later, cancelled, expired
    /// or rejected, some refused for want of cash or shares, checked after every line against the
    /// account booked line by line (each placement's hold taken at once).
    @Test func everyReadingIsAsIfEachLineWereBookedAtOnce() throws {
        var generator = SplitMix64(seed: 42)
        let symbols = ["AAA", "BBB", "CCC"]
        let time = Date(timeIntervalSinceReferenceDate: 816_307_200)
        for _ in 0..<30 {
            var state = PaperLedgerState(brokerID: "paper", configuration: .init(startingCash: 1))
            var booked = PaperAccount(configuration: .init(startingCash: 20_000))
            var open: [PaperOrderPlaced] = []
            try state.apply(.accountOpened(PaperAccountOpened(startingCash: 20_000, time: time)), line: 1)
            for line in 2...150 {
                let record: PaperLedgerRecord
                let roll = Int.random(in: 0..<100, using: &generator)
                if open.isEmpty || roll < 45 {
                    let price = ExactDecimal(units: Int64.random(in: 100...20_000, using: &generator) * 1_000_000)
                    let type: OrderType = roll % 3 == 0 ? .limit(price) : .market
                    let request = try OrderRequest(
                        symbol: symbols.randomElement(using: &generator)!, side: roll % 2 == 0 ? .buy : .sell,
                        quantity: ExactDecimal(Int.random(in: 1...30, using: &generator)), type: type, timeInForce: .gtc,
                        clientOrderID: ClientOrderID("c-\(line)"))
                    let placed = PaperOrderPlaced(
                        orderID: OrderID("P-\(line)"), request: request, time: time, expiresAt: nil, bid: price, ask: price, last: price)
                    _ = booked.accept(request, id: placed.orderID, quote: placed.quote)
                    open.append(placed)
                    record = .placed(placed)
                } else {
                    // The newest order most often: a market order filled on the next line.
                    let index = roll < 80 ? open.count - 1 : Int.random(in: 0..<open.count, using: &generator)
                    let placed = open.remove(at: index)
                    switch roll % 4 {
                    case 0:
                        record = .cancelled(PaperOrderCancelled(orderID: placed.orderID, time: time))
                        booked.release(placed.orderID)
                    case 1 where roll > 90:
                        record = .rejected(PaperOrderRejected(orderID: placed.orderID, reason: "test", time: time))
                        booked.release(placed.orderID)
                    default:
                        let price = ExactDecimal(units: Int64.random(in: 100...20_000, using: &generator) * 1_000_000)
                        let filled = PaperOrderFilled(
                            orderID: placed.orderID, fillID: FillID("F-\(line)"), quantity: placed.request.quantity, price: price,
                            priceSource: .ask, commission: 1, time: time)
                        record = .filled(filled)
                        try booked.apply(Fill(
                            id: filled.fillID, orderID: filled.orderID, symbol: placed.request.symbol, side: placed.request.side,
                            quantity: filled.quantity, price: price, commission: 1, time: time, priceSource: .ask))
                    }
                }
                try state.apply(record, line: line)

                let account = state.account
                #expect(account.cash == booked.cash && account.buyingPower == booked.buyingPower, "line \(line)")
                #expect(account.realizedPnL == booked.realizedPnL && account.commissionsPaid == booked.commissionsPaid)
                #expect(state.openOrderCount == open.count)
                #expect(state.symbolsWithOpenOrders == Set(open.map(\.request.symbol)))
                for symbol in symbols {
                    #expect(account.lots(for: symbol) == booked.lots(for: symbol))
                    #expect(state.openOrders(of: symbol).map(\.id) == open.filter { $0.request.symbol == symbol }.map(\.orderID))
                    // Shares held for open sells show in what another sell may take.
                    let sell = try OrderRequest(symbol: symbol, side: .sell, quantity: 1, type: .market, timeInForce: .gtc, clientOrderID: ClientOrderID("x"))
                    let prices = QuoteSnapshot(bid: 10, ask: 10, last: 10, time: time)
                    #expect(account.validate(sell, quote: prices) == booked.validate(sell, quote: prices), "line \(line) \(symbol)")
                }
            }
        }
    }

    /// A replay hands over the whole array: the same state as line by line, and a line that contradicts
    /// the ones before is refused with its own number, those before it applied.
    @Test func applyingAllTheRecordsAtOnceIsApplyingThemLineByLine() throws {
        let time = Date(timeIntervalSinceReferenceDate: 816_307_200)
        var records: [PaperLedgerRecord] = [.accountOpened(PaperAccountOpened(startingCash: 10_000, time: time))]
        for order in 0..<6 {
            let id = OrderID("P-\(records.count + 1)")
            let request = try OrderRequest(
                symbol: order % 2 == 0 ? "AAA" : "BBB", side: order < 4 ? .buy : .sell, quantity: 10, type: .market,
                timeInForce: .gtc, clientOrderID: ClientOrderID("c-\(order)"))
            records.append(.placed(PaperOrderPlaced(orderID: id, request: request, time: time, expiresAt: nil, bid: 99, ask: 100, last: 100)))
            if order != 5 {
                records.append(.filled(PaperOrderFilled(
                    orderID: id, fillID: FillID("F-\(records.count + 1)"), quantity: 10, price: ExactDecimal(100 + order),
                    priceSource: .ask, commission: 1, time: time)))
            }
        }
        var lineByLine = PaperLedgerState(brokerID: "paper", configuration: .init(startingCash: 1))
        for (offset, record) in records.enumerated() { try lineByLine.apply(record, line: 1 + offset) }
        var atOnce = PaperLedgerState(brokerID: "paper", configuration: .init(startingCash: 1))
        try atOnce.apply(contentsOf: records, firstLine: 1)
        #expect(atOnce.lastLine == records.count && atOnce.fills == lineByLine.fills && atOnce.orders == lineByLine.orders)
        #expect(atOnce.account.cash == lineByLine.account.cash && atOnce.account.buyingPower == lineByLine.account.buyingPower)
        #expect(atOnce.account.lots(for: "AAA") == lineByLine.account.lots(for: "AAA") && atOnce.openOrderCount == 1)

        // Line 4 fills order P-2 a second time.
        var twice = records
        twice.insert(records[2], at: 3)
        var refused = PaperLedgerState(brokerID: "paper", configuration: .init(startingCash: 1))
        #expect(throws: PaperLedgerInconsistency(line: 4, reason: "its order P-2 is already filled")) {
            try refused.apply(contentsOf: twice, firstLine: 1)
        }
        #expect(refused.lastLine == 3 && refused.fills.count == 1)
    }

    /// A fill that cannot be booked, on the line after its order's placement: refused, and the order
    /// still holds what it held, as if its placement had been booked at once.
    @Test func aFillRefusedAfterItsPlacementLeavesThePlacementsHold() throws {
        let time = Date(timeIntervalSinceReferenceDate: 816_307_200)
        var state = PaperLedgerState(brokerID: "paper", configuration: .init(startingCash: 1))
        try state.apply(.accountOpened(PaperAccountOpened(startingCash: 10_000, time: time)), line: 1)
        let request = try OrderRequest(symbol: "AAA", side: .buy, quantity: 10, type: .market, timeInForce: .gtc, clientOrderID: ClientOrderID("c"))
        try state.apply(.placed(PaperOrderPlaced(orderID: OrderID("P-2"), request: request, time: time, expiresAt: nil, bid: 99, ask: 100, last: 100)), line: 2)
        #expect(state.account.buyingPower == 9_000)

        let tooLarge = PaperOrderFilled(orderID: OrderID("P-2"), fillID: FillID("F-3"), quantity: 10, price: .max, priceSource: .ask, commission: 0, time: time)
        #expect(throws: PaperLedgerInconsistency.self) { try state.apply(.filled(tooLarge), line: 3) }
        var otherSize = tooLarge
        otherSize.quantity = 5
        #expect(throws: PaperLedgerInconsistency(line: 3, reason: "it fills 5 of order P-2, which has 10 to fill")) {
            try state.apply(.filled(otherSize), line: 3)
        }
        #expect(state.account.buyingPower == 9_000 && state.openOrders(of: "AAA").map(\.id) == [OrderID("P-2")])

        try state.apply(.cancelled(PaperOrderCancelled(orderID: OrderID("P-2"), time: time)), line: 3)
        #expect(state.account.buyingPower == 10_000 && state.openOrderCount == 0 && state.symbolsWithOpenOrders.isEmpty)
    }
}
