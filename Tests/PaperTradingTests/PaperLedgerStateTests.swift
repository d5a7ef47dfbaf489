import Domain
import Foundation
import PaperTrading
import Testing

/// The ledger's meaning, without a broker: lines applied in order, and the lines asked for on a quote.
@Suite struct PaperLedgerStateTests {
    let time = PaperRig.wednesdayMorning
    let session = MarketSession.usRegularHours

    func opened(cash: ExactDecimal = 100_000) throws -> PaperLedgerState {
        var state = PaperLedgerState(brokerID: "paper", configuration: .init(startingCash: 1))
        try state.apply(.accountOpened(PaperAccountOpened(startingCash: cash, time: time)), line: 1)
        return state
    }

    func place(_ request: OrderRequest, _ id: String, on state: inout PaperLedgerState, quote: QuoteSnapshot, line: Int) throws {
        let placed = try state.placement(of: request, id: OrderID(id), at: time, quote: quote, session: session).get()
        try state.apply(.placed(placed), line: line)
    }

    @Test func theFirstLineOpensTheAccountWithItsOwnStartingCash() throws {
        let state = try opened(cash: 25_000)
        #expect(state.isOpened && state.account.cash == 25_000 && state.lastLine == 1)
    }

    @Test func linesThatContradictTheLedgerAreRefusedWithTheirLineNumber() throws {
        var fresh = PaperLedgerState(brokerID: "paper", configuration: .init(startingCash: 1))
        let expiry = PaperOrderExpired(orderID: OrderID("P-2"), time: time)
        #expect(throws: PaperLedgerInconsistency(line: 1, reason: "its expired record comes before the account is opened; line 1 must open it (accountOpened)")) {
            try fresh.apply(.expired(expiry), line: 1)
        }

        var state = try opened()
        #expect(throws: PaperLedgerInconsistency(line: 2, reason: "it opens the account again; only the first line may open it")) {
            try state.apply(.accountOpened(PaperAccountOpened(startingCash: 5, time: time)), line: 2)
        }
        #expect(throws: PaperLedgerInconsistency(line: 2, reason: "it is about order P-2, which no earlier line placed")) {
            try state.apply(.expired(expiry), line: 2)
        }
        try place(try order(.buy, 10), "P-2", on: &state, quote: try quote(bid: "9.99", ask: "10", last: "10"), line: 2)
        let fill = PaperOrderFilled(orderID: OrderID("P-2"), fillID: FillID("F-3"), quantity: 4, price: 10, priceSource: .ask, commission: 0, time: time)
        #expect(throws: PaperLedgerInconsistency(line: 3, reason: "it fills 4 of order P-2, which has 10 to fill")) {
            try state.apply(.filled(fill), line: 3)
        }
        var whole = fill
        whole.quantity = 10
        try state.apply(.filled(whole), line: 3)
        #expect(throws: PaperLedgerInconsistency(line: 4, reason: "its order P-2 is already filled")) {
            try state.apply(.filled(whole), line: 4)
        }
        #expect(throws: PaperLedgerInconsistency(line: 3, reason: "it comes after line 3 but is numbered 3")) {
            try state.apply(.expired(expiry), line: 3)
        }
        // Nothing that was refused changed the state.
        #expect(state.lastLine == 3 && state.fills.count == 1 && state.account.cash == 99_900)
    }

    @Test func aStopTriggersAndFillsOnOneQuoteInTwoLines() throws {
        var state = try opened()
        try place(try order(.buy, 10, .stop(101), timeInForce: .gtc), "P-2", on: &state, quote: try quote(bid: "99.9", ask: "100", last: "100"), line: 2)
        let records = state.executions(of: "AAPL", on: try quote(bid: "101", ask: "101.05", last: "101.02"), marketOpen: true, at: time, firstLine: 3)
        #expect(records == [
            .triggered(PaperOrderTriggered(orderID: OrderID("P-2"), worksAs: .market, lastTrade: try d("101.02"), time: time)),
            .filled(PaperOrderFilled(orderID: OrderID("P-2"), fillID: FillID("F-4"), quantity: 10, price: try d("101.05"), priceSource: .ask, commission: 0, time: time)),
        ])
        // Asked again before the lines are applied, the answer is the same: the state decides, not the asker.
        #expect(state.executions(of: "AAPL", on: try quote(bid: "101", ask: "101.05", last: "101.02"), marketOpen: true, at: time, firstLine: 3) == records)
        for (offset, record) in records.enumerated() { try state.apply(record, line: 3 + offset) }
        #expect(state.openOrderCount == 0 && state.order(OrderID("P-2"))?.status == .filled)
        #expect(state.executions(of: "AAPL", on: try quote(bid: "101", ask: "101.05", last: "101.02"), marketOpen: true, at: time, firstLine: 5).isEmpty)
    }

    @Test func aFillTheAccountCannotBookIsARejection() throws {
        var state = try opened()
        try place(try order(.buy, 900, .stop(101), timeInForce: .gtc), "P-2", on: &state, quote: try quote(bid: "99.9", ask: "100", last: "100"), line: 2)
        // A source gone mad: 900 shares at a billion is beyond what the account can count.
        let records = state.executions(of: "AAPL", on: try quote(bid: nil, ask: "1000000000", last: "1000000000"), marketOpen: true, at: time, firstLine: 3)
        #expect(records.count == 2)
        guard case .rejected(let rejected) = records.last else {
            Issue.record("expected a rejection, got \(records)")
            return
        }
        #expect(rejected.reason.hasPrefix("buy 900 AAPL at 1000000000 cannot be booked: "))
        for (offset, record) in records.enumerated() { try state.apply(record, line: 3 + offset) }
        #expect(state.order(OrderID("P-2"))?.rejectReason == rejected.reason && state.account.buyingPower == 100_000)
    }

    @Test func dayOrdersExpireAtTheirSessionsCloseAndGoodTillCancelledOnesDoNot() throws {
        var state = try opened()
        let prices = try quote(bid: "99.9", ask: "100", last: "100")
        try place(try order(.buy, 1, .limit(90)), "P-2", on: &state, quote: prices, line: 2)
        try place(try order(.buy, 1, .limit(90), symbol: "MSFT"), "P-3", on: &state, quote: prices, line: 3)
        try place(try order(.buy, 1, .limit(90), timeInForce: .gtc), "P-4", on: &state, quote: prices, line: 4)
        let close = WallClock.newYork(2026, 11, 25, 16)
        #expect(state.expiries(at: close.addingTimeInterval(-1)).isEmpty)
        #expect(state.expiries(at: close).map(\.orderID) == [OrderID("P-2"), OrderID("P-3")])
        // A quote for one symbol expires that symbol's day orders rather than judging them.
        #expect(state.executions(of: "AAPL", on: try quote(bid: "80", ask: "80.01", last: "80"), marketOpen: false, at: close, firstLine: 5)
            == [.expired(PaperOrderExpired(orderID: OrderID("P-2"), time: close))])
    }
}
