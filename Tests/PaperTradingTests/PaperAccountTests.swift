import Domain
import Foundation
import PaperTrading
import Testing

@Suite struct PaperAccountFIFOTests {
    @Test func realizesPnLFirstInFirstOut() throws {
        var account = PaperAccount(configuration: .init(startingCash: 10_000))
        try account.apply(fill(.buy, 10, at: 100))
        try account.apply(fill(.buy, 10, at: 110))
        var lots = try #require(account.lots(for: "AAPL"))
        #expect(lots.quantity == 20 && lots.costBasis == 2_100 && lots.averageCost == 105)

        // 15 sold at 120: all of the 100 lot (10 × 20) and 5 of the 110 lot (5 × 10).
        #expect(try account.apply(fill(.sell, 15, at: 120)) == 250)
        lots = try #require(account.lots(for: "AAPL"))
        #expect(lots.openLots.map(\.quantity) == [5] && lots.openLots.map(\.price) == [110])
        #expect(lots.costBasis == 550 && lots.averageCost == 110 && lots.realizedPnL == 250)
        #expect(account.cash == 9_700)

        // The last 5 sold at a loss.
        #expect(try account.apply(fill(.sell, 5, at: 105)) == -25)
        #expect(account.realizedPnL == 225 && account.cash == 10_225)
        #expect(account.lots(for: "AAPL")?.isFlat == true)
    }

    @Test func averagesCostExactlyToEightDecimals() throws {
        var account = PaperAccount(configuration: .init(startingCash: 10_000))
        try account.apply(fill(.buy, 1, at: 100))
        try account.apply(fill(.buy, 2, at: try d("100.01")))
        let lots = try #require(account.lots(for: "AAPL"))
        // 300.02 / 3 = 100.006666…, half to even at the 8th decimal.
        #expect(try lots.costBasis == d("300.02") && lots.averageCost == d("100.00666667"))
        #expect(try lots.unrealizedPnL(at: 101) == (try d("2.98")))
    }

    @Test func coversShortsFirstInFirstOutAndHoldsThemAgainstBuyingPower() throws {
        var account = PaperAccount(configuration: .init(startingCash: 10_000, allowShort: true))
        try account.apply(fill(.sellShort, 10, at: 50))
        try account.apply(fill(.sellShort, 10, at: 60))
        #expect(account.cash == 11_100)
        var lots = try #require(account.lots(for: "AAPL"))
        #expect(lots.quantity == -20 && lots.costBasis == -1_100 && lots.averageCost == 55)
        // The proceeds are held and as much again: 11,100 − 2 × 1,100.
        #expect(account.buyingPower == 8_900)

        // Covering 12 at 45: the 50 lot (10 × 5) and 2 of the 60 lot (2 × 15).
        #expect(try account.apply(fill(.buyToCover, 12, at: 45)) == 80)
        lots = try #require(account.lots(for: "AAPL"))
        #expect(lots.quantity == -8 && lots.costBasis == -480 && lots.openLots.map(\.price) == [60])
        #expect(account.cash == 10_560 && account.buyingPower == 9_600)
        #expect(try lots.unrealizedPnL(at: 40) == 160)
        #expect(try lots.unrealizedPnL(at: 70) == -80)
    }

    @Test func chargesCommissionsPerShareWithAMinimumPerOrder() throws {
        let schedule = CommissionSchedule(perShare: try d("0.005"), minimumPerOrder: 1)
        #expect(try schedule.commission(for: 100) == 1)
        #expect(try schedule.commission(for: 1_000) == 5)
        #expect(try schedule.commission(for: 250) == (try d("1.25")))
        #expect(try CommissionSchedule.free.commission(for: 1_000) == 0)

        var account = PaperAccount(configuration: .init(startingCash: 10_000, commission: schedule))
        try account.apply(fill(.buy, 100, at: 20, commission: 1))
        try account.apply(fill(.sell, 100, at: 21, commission: 1))
        #expect(account.realizedPnL == 100 && account.commissionsPaid == 2 && account.cash == 10_098)
    }

    @Test func aFillTooLargeToCountChangesNothing() throws {
        var account = PaperAccount(configuration: .init(startingCash: 10_000))
        try account.apply(fill(.buy, 10, at: 100))
        let before = try #require(account.lots(for: "AAPL"))
        #expect(throws: ExactDecimal.ArithmeticError.self) {
            try account.apply(fill(.buy, 1_000_000_000, at: 1_000))
        }
        #expect(throws: ExactDecimal.ArithmeticError.self) {
            try account.apply(fill(.sell, 1, at: .max))
        }
        #expect(account.cash == 9_000 && account.lots(for: "AAPL") == before && account.commissionsPaid == 0)
    }

    @Test func anOverflowInsideTheLotsLeavesTheLotsAsTheyWere() throws {
        // Cash and commissions stay in range; the second 80-billion gain overflows realized P&L, which
        // is counted inside the lots after some of them have been worked through.
        var account = PaperAccount(configuration: .init(startingCash: 0))
        let penny = try d("0.01"), huge: ExactDecimal = 80_000_000_000, fee: ExactDecimal = 40_000_000_000
        try account.apply(fill(.buy, 1, at: penny))
        try account.apply(fill(.sell, 1, at: huge, commission: fee))
        try account.apply(fill(.buy, 1, at: penny))
        let cash = account.cash, lots = account.lots(for: "AAPL"), realized = account.realizedPnL
        #expect(throws: ExactDecimal.ArithmeticError.self) {
            try account.apply(fill(.sell, 1, at: huge, commission: fee))
        }
        #expect(account.cash == cash && account.lots(for: "AAPL") == lots && account.realizedPnL == realized)
        #expect(account.commissionsPaid == fee && lots?.quantity == 1)
    }

    @Test func listsOpenPositionsValuedAtTheirOwnLastPrice() throws {
        var account = PaperAccount(configuration: .init(startingCash: 100_000, allowShort: true))
        try account.apply(fill(.buy, 10, at: 150, symbol: "MSFT"))
        try account.apply(fill(.buy, 5, at: 200, symbol: "AAPL"))
        try account.apply(fill(.sellShort, 4, at: 25, symbol: "INTC"))
        try account.apply(fill(.buy, 1, at: 10, symbol: "GONE"))
        try account.apply(fill(.sell, 1, at: 12, symbol: "GONE"))

        let lasts: [String: ExactDecimal] = ["AAPL": 210, "INTC": 20]
        let positions = try account.positions(brokerID: "paper", lastPrice: { lasts[$0] })
        #expect(positions.map(\.symbol) == ["AAPL", "INTC", "MSFT"])
        #expect(positions[0].unrealizedPnL == 50 && positions[0].marketValue == 1_050 && positions[0].brokerID == "paper")
        #expect(positions[1].quantity == -4 && positions[1].unrealizedPnL == 20 && positions[1].unrealizedPnLPercent == 20)
        #expect(positions[2].lastPrice == nil && positions[2].unrealizedPnL == nil && positions[2].averageCost == 150)
        // A closed position is not listed but keeps its realized P&L.
        #expect(try account.position(for: "GONE", brokerID: "paper", last: 12) == nil)
        #expect(account.lots(for: "GONE")?.realizedPnL == 2 && account.realizedPnL == 2)
        #expect(account.symbols == ["AAPL", "GONE", "INTC", "MSFT"])
    }
}

@Suite struct PaperAccountRefusalTests {
    let schedule: CommissionSchedule
    let aapl: QuoteSnapshot

    init() throws {
        schedule = CommissionSchedule(perShare: try d("0.005"), minimumPerOrder: 1)
        aapl = try quote(bid: "150.23", ask: "150.25", last: "150.24")
    }

    func account(cash: ExactDecimal = 10_000, allowShort: Bool = false) -> PaperAccount {
        PaperAccount(configuration: .init(startingCash: cash, commission: schedule, allowShort: allowShort))
    }

    @Test func refusesABuyTheCashCannotCoverEstimatedAtTheAsk() throws {
        let refusal = account().validate(try order(.buy, 100), quote: aapl)
        #expect(refusal == .insufficientBuyingPower(needed: 15_026, available: 10_000))
        #expect(refusal?.description == "needs $15026.00 with commission, buying power is $10000.00")
        #expect(refusal?.brokerError == .insufficientBuyingPower("needs $15026.00 with commission, buying power is $10000.00"))
        #expect(account().validate(try order(.buy, 66), quote: aapl) == nil)
    }

    @Test func estimatesALimitBuyAtItsLimitAndAStopBuyAtLeastAtItsStop() throws {
        // 100 at a limit of 99 needs 9,901 with commission, though the ask is 150.25.
        #expect(account().validate(try order(.buy, 100, .limit(99)), quote: aapl) == nil)
        #expect(account().validate(try order(.buy, 100, .limit(101)), quote: aapl)
            == .insufficientBuyingPower(needed: 10_101, available: 10_000))
        #expect(account().validate(try order(.buy, 60, .stop(170)), quote: aapl)
            == .insufficientBuyingPower(needed: 10_201, available: 10_000))
        #expect(account().validate(try order(.buy, 60, .stopLimit(stop: 170, limit: 160)), quote: aapl) == nil)
    }

    @Test func refusesSellingSharesNotHeld() throws {
        var account = account()
        let none = account.validate(try order(.sell, 10), quote: aapl)
        #expect(none == .insufficientShares(symbol: "AAPL", wanted: 10, available: 0))
        #expect(none?.description == "selling 10 AAPL but no AAPL shares are free to sell (none held, or open orders hold them)")
        try account.apply(fill(.buy, 10, at: 150))
        let tooMany = account.validate(try order(.sell, 11), quote: aapl)
        #expect(tooMany?.description == "selling 11 AAPL but only 10 can be sold; lower the quantity")
        #expect(tooMany?.brokerError == .orderRejected(reason: "selling 11 AAPL but only 10 can be sold; lower the quantity"))
        #expect(account.validate(try order(.sell, 10), quote: aapl) == nil)
    }

    @Test func refusesShortSalesUnlessAllowedAndNeverAgainstALongPosition() throws {
        let off = account().validate(try order(.sellShort, 10), quote: aapl)
        #expect(off == .shortingNotAllowed(symbol: "AAPL"))
        #expect(off?.description == "selling AAPL short is off; set allowShort in the paper broker's config to allow it")
        var shortable = account(allowShort: true)
        #expect(shortable.validate(try order(.sellShort, 10), quote: aapl) == nil)
        // 100 short at the bid of 150.23 use 15,024 of buying power, like buying them would.
        #expect(shortable.validate(try order(.sellShort, 100), quote: aapl)
            == .insufficientBuyingPower(needed: 15_024, available: 10_000))
        try shortable.apply(fill(.buy, 5, at: 150))
        #expect(shortable.validate(try order(.sellShort, 10), quote: aapl) == .holdsLong(symbol: "AAPL", quantity: 5))
        #expect(PaperRefusal.holdsLong(symbol: "AAPL", quantity: 5).description == "5 AAPL held long; sell them before selling short")
    }

    @Test func refusesBuyingWhileShortAndCoveringMoreThanIsShort() throws {
        var account = account(allowShort: true)
        #expect(account.validate(try order(.buyToCover, 1), quote: aapl)
            == .insufficientShortPosition(symbol: "AAPL", wanted: 1, available: 0))
        try account.apply(fill(.sellShort, 10, at: 150))
        let buy = account.validate(try order(.buy, 1), quote: aapl)
        #expect(buy == .holdsShort(symbol: "AAPL", quantity: -10))
        #expect(buy?.description == "10 AAPL held short; use buy to cover")
        #expect(account.validate(try order(.buyToCover, 11), quote: aapl)
            == .insufficientShortPosition(symbol: "AAPL", wanted: 11, available: 10))
        #expect(account.validate(try order(.buyToCover, 10), quote: aapl) == nil)
    }

    @Test func coveringIsNeverRefusedForCash() throws {
        var account = account(cash: 1_000, allowShort: true)
        try account.apply(fill(.sellShort, 10, at: 100))
        let spiked = try quote(bid: "399.90", ask: "400.00", last: "400")
        #expect(account.validate(try order(.buyToCover, 10), quote: spiked) == nil)
        try account.apply(fill(.buyToCover, 10, at: 400))
        #expect(account.cash == -2_000 && account.realizedPnL == -3_000)
    }

    @Test func refusesFractionalSharesAndPricesOffTheTick() throws {
        let account = account()
        #expect(account.validate(try order(.buy, try d("1.5")), quote: aapl) == .fractionalQuantity(try d("1.5")))
        let cents = account.validate(try order(.buy, 1, .limit(try d("150.255"))), quote: aapl)
        #expect(cents == .offTick(field: "limit", price: try d("150.255"), tick: try d("0.01")))
        #expect(cents?.description == "limit price 150.255 is not a multiple of 0.01; use 2 decimals at this price")
        #expect(account.validate(try order(.buy, 1, .limit(try d("0.12345"))), quote: aapl)
            == .offTick(field: "limit", price: try d("0.12345"), tick: try d("0.0001")))
        #expect(account.validate(try order(.buy, 1, .limit(try d("0.1234"))), quote: aapl) == nil)
        #expect(account.validate(try order(.buy, 1, .stop(try d("150.001"))), quote: aapl)
            == .offTick(field: "stop", price: try d("150.001"), tick: try d("0.01")))
    }

    @Test func refusesWhatItCannotPriceOrCount() throws {
        let noPrice = try quote(bid: nil, ask: nil, last: "0")
        #expect(account().validate(try order(.buy, 1), quote: noPrice) == .noPrice(symbol: "AAPL"))
        // A limit gives the estimate a price even without a quote.
        #expect(account().validate(try order(.buy, 1, .limit(10)), quote: noPrice) == nil)
        guard case .tooLarge = account().validate(try order(.buy, 1_000_000_000, .limit(1_000)), quote: aapl) else {
            Issue.record("a 10¹² order should be refused as too large")
            return
        }
    }

    @Test func openOrdersHoldWhatTheyNeedUntilFilledOrReleased() throws {
        var account = account()
        // 60 at a limit of 100: 6,001 with commission.
        #expect(account.accept(try order(.buy, 60, .limit(100)), id: OrderID("a"), quote: aapl) == nil)
        #expect(account.buyingPower == 3_999)
        let second = try order(.buy, 60, .limit(100), symbol: "MSFT")
        #expect(account.accept(second, id: OrderID("b"), quote: aapl) == .insufficientBuyingPower(needed: 6_001, available: 3_999))
        account.release(OrderID("a"))
        account.release(OrderID("a"))
        #expect(account.buyingPower == 10_000)
        #expect(account.accept(second, id: OrderID("b"), quote: aapl) == nil)
        // Filling releases the hold; the cash paid takes its place.
        try account.apply(fill(.buy, 60, at: 100, symbol: "MSFT", commission: 1, orderID: "b"))
        #expect(account.cash == 3_999 && account.buyingPower == 3_999)

        // Shares promised to an open sell cannot be sold twice.
        #expect(account.accept(try order(.sell, 40, symbol: "MSFT"), id: OrderID("s1"), quote: aapl) == nil)
        #expect(account.validate(try order(.sell, 21, symbol: "MSFT"), quote: aapl)
            == .insufficientShares(symbol: "MSFT", wanted: 21, available: 20))
        account.release(OrderID("s1"))
        #expect(account.validate(try order(.sell, 60, symbol: "MSFT"), quote: aapl) == nil)
    }

    @Test func replacingAnOrderJudgesItWithoutItsOldHold() throws {
        var account = account()
        #expect(account.accept(try order(.buy, 60, .limit(100)), id: OrderID("a"), quote: aapl) == nil)
        // 90 at 100 would not fit beside the old hold of 6,001, but it replaces it.
        #expect(account.accept(try order(.buy, 90, .limit(100)), id: OrderID("a"), quote: aapl) == nil)
        #expect(account.buyingPower == 999)
        // A refused replacement leaves the order's hold as it was.
        let refusal = account.accept(try order(.buy, 200, .limit(100)), id: OrderID("a"), quote: aapl)
        #expect(refusal == .insufficientBuyingPower(needed: 20_001, available: 10_000))
        #expect(account.buyingPower == 999)
    }
}
