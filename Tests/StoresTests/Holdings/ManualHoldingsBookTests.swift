import Domain
import Testing
@testable import Stores

@Suite struct ManualHoldingsBookTests {
    private static func lot(
        _ date: String, _ symbol: String, _ quantity: String, _ price: String, fees: String = "0", broker: String? = nil, line: Int = 2
    ) -> ManualLot {
        ManualLot(
            date: TradeDate(parsing: date)!, symbol: symbol, quantity: ExactDecimal(parsing: quantity)!,
            price: ExactDecimal(parsing: price)!, fees: ExactDecimal(parsing: fees)!, brokerLabel: broker, line: line)
    }

    private static func book(_ lots: [ManualLot]) -> ManualHoldingsBook {
        ManualHoldingsBook(imports: [ManualImport(sha256: String(repeating: "0", count: 64), file: "/l.csv", importedAt: .init(timeIntervalSince1970: 0), lots: lots)])
    }

    private static func decimal(_ text: String) -> ExactDecimal { ExactDecimal(parsing: text)! }

    @Test func oneLotCostsItsPriceAndItsFees() throws {
        let positions = try Self.book([Self.lot("2024-03-15", "AAPL", "10", "150.25", fees: "1")]).positions()
        #expect(positions == [ManualPosition(
            brokerLabel: nil, symbol: "AAPL", quantity: 10, costBasis: Self.decimal("1503.5"),
            averageCost: Self.decimal("150.35"), realizedPnL: 0, lotCount: 1)])
    }

    @Test func lotsOfOneSymbolAddUp() throws {
        let positions = try Self.book([
            Self.lot("2024-01-02", "MSFT", "10", "100", fees: "1"),
            Self.lot("2024-02-02", "MSFT", "10", "110", fees: "1"),
        ]).positions()
        #expect(positions.map(\.quantity) == [20])
        #expect(positions.map(\.costBasis) == [2102])
        #expect(positions.map(\.averageCost) == [Self.decimal("105.1")])
    }

    /// Selling 15 of 10 + 10 closes the first lot and half the second, oldest first; the sale's fees are
    /// split by shares and the pieces still add up to exactly what was paid.
    @Test func aSaleClosesTheOldestLotsFirst() throws {
        let positions = try Self.book([
            Self.lot("2023-01-02", "AAPL", "10", "100", fees: "1"),
            Self.lot("2023-02-01", "AAPL", "10", "110", fees: "1"),
            Self.lot("2023-03-01", "AAPL", "-15", "120", fees: "2"),
        ]).positions()
        // Realized: 15 × 120 − 2 (fees of the sale) − 1001 (first lot) − 550.5 (half the second).
        #expect(positions == [ManualPosition(
            brokerLabel: nil, symbol: "AAPL", quantity: 5, costBasis: Self.decimal("550.5"),
            averageCost: Self.decimal("110.1"), realizedPnL: Self.decimal("246.5"), lotCount: 3)])
    }

    @Test func aSaleOfMoreThanIsHeldClosesThePositionAndOpensAShort() throws {
        let positions = try Self.book([
            Self.lot("2023-01-02", "AAPL", "10", "100", fees: "1"),
            Self.lot("2023-03-01", "AAPL", "-15", "120", fees: "3"),
        ]).positions()
        // Of the 3 in fees, 2 go with the 10 shares sold and 1 with the 5 sold short.
        #expect(positions == [ManualPosition(
            brokerLabel: nil, symbol: "AAPL", quantity: -5, costBasis: -599,
            averageCost: Self.decimal("119.8"), realizedPnL: 197, lotCount: 2)])
        #expect(positions[0].position(brokerID: "manual").isShort)
    }

    @Test func aShortLotCostsItsProceedsLessItsFees() throws {
        let positions = try Self.book([Self.lot("2024-09-03", "TSLA", "-3", "210.60", fees: "0.65")]).positions()
        #expect(positions.map(\.costBasis) == [Self.decimal("-631.15")])
        #expect(positions.map(\.averageCost) == [Self.decimal("210.38333333")])
        // Bought back at 200, the short gains 631.15 − 600 after the fees it paid.
        let valued = try positions[0].position(brokerID: "manual").valued(at: 200)
        #expect(valued.unrealizedPnL == Self.decimal("31.15"))
    }

    @Test func aBuyBackClosesAShort() throws {
        let positions = try Self.book([
            Self.lot("2024-01-02", "TSLA", "-10", "200", fees: "1"),
            Self.lot("2024-01-03", "TSLA", "4", "190", fees: "1"),
        ]).positions()
        // The 4 bought back took 4/10 of the short's −1999 and cost 761: realized 799.6 − 761.
        #expect(positions.map(\.quantity) == [-6])
        #expect(positions.map(\.costBasis) == [Self.decimal("-1199.4")])
        #expect(positions.map(\.realizedPnL) == [Self.decimal("38.6")])
    }

    @Test func aHoldingThatNetsToNothingIsNotAPosition() throws {
        #expect(try Self.book([
            Self.lot("2024-01-02", "AAPL", "10", "100", fees: "1"),
            Self.lot("2024-01-03", "AAPL", "-10", "101", fees: "1"),
        ]).positions() == [])
    }

    @Test func lotsAreTakenInDateOrderWhateverTheirOrderInTheFile() throws {
        let positions = try Self.book([
            Self.lot("2024-02-01", "AAPL", "-5", "120", line: 2),
            Self.lot("2024-01-01", "AAPL", "10", "100", line: 3),
        ]).positions()
        #expect(positions.map(\.quantity) == [5])
        #expect(positions.map(\.costBasis) == [500])
        #expect(positions.map(\.realizedPnL) == [100])
    }

    @Test func eachBrokerLabelKeepsItsOwnPositionsSortedByLabelThenSymbol() throws {
        let positions = try Self.book([
            Self.lot("2024-01-02", "MSFT", "1", "400", broker: "Schwab"),
            Self.lot("2024-01-02", "AAPL", "2", "180", broker: "Schwab"),
            Self.lot("2024-01-02", "AAPL", "3", "181"),
            Self.lot("2024-01-02", "AAPL", "4", "182", broker: "Fidelity IRA"),
        ]).positions()
        #expect(positions.map { "\($0.brokerLabel ?? "-") \($0.symbol) \($0.quantity)" } == [
            "- AAPL 3", "Fidelity IRA AAPL 4", "Schwab AAPL 2", "Schwab MSFT 1",
        ])
        #expect(positions.map { $0.position(brokerID: "manual").brokerID } == ["manual", "manual", "manual", "manual"])
    }

    /// Closing a third of a lot three times takes 1.00333333, 1.00333334 and 1.00333333 of its 3.01: the
    /// rounding never loses or makes a cent, and selling at the price paid realizes exactly minus the fees.
    @Test func partialClosesLoseNothingToRounding() throws {
        let positions = try Self.book([
            Self.lot("2024-01-02", "X", "3", "1", fees: "0.01"),
            Self.lot("2024-01-03", "X", "-1", "1"),
            Self.lot("2024-01-04", "X", "-1", "1"),
            Self.lot("2024-01-05", "X", "-1", "1"),
            Self.lot("2024-01-06", "X", "1", "7"),
        ]).positions()
        #expect(positions.map(\.realizedPnL) == [Self.decimal("-0.01")])
        #expect(positions.map(\.costBasis) == [7])
    }

    /// Buying lots and selling the same lots at the same prices nets to minus the fees, exactly, for any
    /// quantities and prices (seeded, so every run checks the same 200 books).
    @Test func sellingWhatWasBoughtAtTheSamePricesRealizesMinusTheFees() throws {
        var random = SplitMix64(seed: 15)
        for _ in 0..<200 {
            var lots: [ManualLot] = []
            var fees: ExactDecimal = 0
            let count = Int(random.next() % 6) + 1
            var bought: [(String, String)] = []
            for index in 0..<count {
                let quantity = "\(random.next() % 1000 + 1).\(random.next() % 10_000)"
                let price = "\(random.next() % 500).\(random.next() % 100)"
                let fee = "\(random.next() % 10).\(random.next() % 100)"
                fees += ExactDecimal(parsing: fee)!
                bought.append((quantity, price))
                lots.append(Self.lot("2024-01-\(10 + index)", "AAPL", quantity, price, fees: fee))
            }
            for (index, (quantity, price)) in bought.enumerated() {
                let fee = "\(random.next() % 10).\(random.next() % 100)"
                fees += ExactDecimal(parsing: fee)!
                lots.append(Self.lot("2024-02-\(10 + index)", "AAPL", "-" + quantity, price, fees: fee))
            }
            lots.append(Self.lot("2024-03-01", "AAPL", "1", "1"))
            let positions = try Self.book(lots.shuffled(using: &random)).positions()
            #expect(positions.map(\.realizedPnL) == [-fees], "\(lots)")
            #expect(positions.map(\.quantity) == [1])
        }
    }

    @Test func totalsBeyondTheRangeAreAnErrorNotATrap() {
        let book = Self.book([
            Self.lot("2024-01-02", "AAPL", "50000000000", "1"),
            Self.lot("2024-01-03", "AAPL", "50000000000", "1"),
        ])
        #expect(throws: ManualHoldingsBook.TotalsError.self) { try book.positions() }
        do {
            _ = try book.positions()
        } catch {
            #expect(error.description == "the holding of AAPL cannot be totalled: 50000000000 + 50000000000 is beyond ±90000000000")
        }
    }

    @Test func aShareIsRoundedHalfToEven() {
        let unit = ExactDecimal(units: 1)
        #expect(ManualHoldingsBook.share(of: 1, part: 1, whole: 3) == Self.decimal("0.33333333"))
        #expect(ManualHoldingsBook.share(of: unit, part: 1, whole: 2) == 0)
        #expect(ManualHoldingsBook.share(of: ExactDecimal(units: 3), part: 1, whole: 2) == ExactDecimal(units: 2))
        #expect(ManualHoldingsBook.share(of: ExactDecimal(units: -3), part: 1, whole: 2) == ExactDecimal(units: -2))
        #expect(ManualHoldingsBook.share(of: ExactDecimal(units: -5), part: 1, whole: 2) == ExactDecimal(units: -2))
        #expect(ManualHoldingsBook.share(of: .max, part: 89_999_999_999, whole: 90_000_000_000) < .max)
    }
}
