import Domain
import Foundation
import PaperTrading
import Testing

/// Generated trades, seeded so any failure replays exactly.
@Suite struct PaperAccountPropertyTests {
    /// A price on the US tick: whole cents from $1.00, hundredths of a cent below.
    static func price(_ random: inout SplitMix64) -> ExactDecimal {
        random.next() % 4 == 0
            ? ExactDecimal(units: Int64(1 + random.next() % 9_999) * 10_000)
            : ExactDecimal(units: Int64(100 + random.next() % 99_900) * 1_000_000)
    }

    /// `total` split into 1–4 positive whole parts.
    static func chunks(of total: Int, _ random: inout SplitMix64) -> [Int] {
        var parts: [Int] = []
        var left = total
        while left > 0 {
            let part = parts.count == 3 ? left : 1 + Int(random.next() % UInt64(left))
            parts.append(part)
            left -= part
        }
        return parts
    }

    @Test(arguments: [OrderSide.buy, .sellShort])
    func closingTheSameLotsAtTheSamePricesNetsToMinusTheCommissionsExactly(_ opening: OrderSide) throws {
        var random = SplitMix64(seed: opening == .buy ? 0x15 : 0x51)
        let schedule = CommissionSchedule(perShare: try d("0.0035"), minimumPerOrder: try d("0.35"))
        let closing: OrderSide = opening == .buy ? .sell : .buyToCover
        for round in 0..<300 {
            let start = ExactDecimal(units: Int64(1 + random.next() % 1_000_000_000) * 1_000_000)
            var account = PaperAccount(configuration: .init(startingCash: start, commission: schedule, allowShort: true))
            var charged: ExactDecimal = 0
            let lots = (0..<(1 + Int(random.next() % 8))).map { _ in (1 + Int(random.next() % 500), Self.price(&random)) }
            for (index, (quantity, price)) in lots.enumerated() {
                let commission = try schedule.commission(for: ExactDecimal(quantity))
                charged += commission
                try account.apply(fill(opening, ExactDecimal(quantity), at: price, commission: commission, orderID: "o\(index)"))
            }
            // First in, first out: each lot closed at its own price, in pieces.
            for (index, (quantity, price)) in lots.enumerated() {
                for (piece, part) in Self.chunks(of: quantity, &random).enumerated() {
                    let commission = try schedule.commission(for: ExactDecimal(part))
                    charged += commission
                    try account.apply(fill(closing, ExactDecimal(part), at: price, commission: commission, orderID: "c\(index).\(piece)"))
                }
            }
            #expect(account.cash == start - charged, "round \(round)")
            #expect(account.realizedPnL == 0 && account.commissionsPaid == charged, "round \(round)")
            #expect(account.lots(for: "AAPL")?.isFlat == true && account.buyingPower == account.cash, "round \(round)")
        }
    }

    @Test func cashAlwaysEqualsStartPlusRealizedMinusCommissionsMinusWhatIsOpen() throws {
        var random = SplitMix64(seed: 0xCA5E)
        let schedule = CommissionSchedule(perShare: try d("0.005"), minimumPerOrder: 1)
        var account = PaperAccount(configuration: .init(startingCash: 50_000_000, commission: schedule, allowShort: true))
        let symbols = ["AAPL", "MSFT", "INTC"]
        var applied = 0
        for step in 0..<3_000 {
            let symbol = symbols[Int(random.next() % 3)]
            // A side that suits the position, so most orders pass and the books move both ways.
            let held = account.lots(for: symbol)?.quantity ?? 0
            let adds = random.next() % 2 == 0
            let side: OrderSide = held.isPositive ? (adds ? .buy : .sell)
                : held.isNegative ? (adds ? .sellShort : .buyToCover) : (adds ? .buy : .sellShort)
            let quantity = held.isZero || adds
                ? ExactDecimal(1 + Int(random.next() % 200))
                : ExactDecimal(1 + Int(random.next() % UInt64(held.magnitude.units / ExactDecimal.unitsPerOne)))
            let last = Self.price(&random)
            let snapshot = QuoteSnapshot(bid: last, ask: last, last: last, time: epoch)
            let request = try order(side, quantity, symbol: symbol)
            guard account.validate(request, quote: snapshot) == nil else { continue }
            try account.apply(fill(side, quantity, at: last, symbol: symbol, commission: try account.commission(for: quantity), orderID: "o\(step)"))
            applied += 1
            let open = account.symbols.compactMap { account.lots(for: $0)?.costBasis }.reduce(0, +)
            #expect(account.cash == account.configuration.startingCash + account.realizedPnL - account.commissionsPaid - open, "step \(step)")
            let realized = account.symbols.compactMap { account.lots(for: $0)?.realizedPnL }.reduce(0, +)
            #expect(account.realizedPnL == realized, "step \(step)")
        }
        // Nearly every generated order passed validation, so the identity was checked on real books.
        #expect(applied > 2_900)
    }
}
