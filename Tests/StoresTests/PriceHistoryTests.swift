import Domain
import Foundation
@testable import Stores
import Testing

/// The compact 30-minute history of a row (issue 18: about 6 KB a full row): the same points, exactly,
/// as the plain arrays it replaced, in a fraction of the memory.
@Suite struct PriceHistoryTests {
    static let t0 = Date(timeIntervalSinceReferenceDate: 785_592_800)

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    /// A row that has quoted every second for 30 minutes or more.
    static func fullRow(seconds: Int = PriceHistory.capacity, price: (Int) -> ExactDecimal) -> PriceHistory {
        var history = PriceHistory()
        for second in 0..<seconds { history.record(price(second), at: at(Double(second))) }
        return history
    }

    static func prices(_ history: PriceHistory) -> [ExactDecimal] { history.points(since: .distantPast).map(\.price) }
    static func seconds(_ history: PriceHistory) -> [Double] {
        history.points(since: .distantPast).map { $0.time.timeIntervalSince(t0) }
    }

    @Test func aFullRowOfCentPricesTakesAtMostSixKilobytes() {
        let history = Self.fullRow { ExactDecimal(units: 15_000_000_000 + Int64($0 % 97 - 48) * 1_000_000) }
        #expect(history.count == PriceHistory.capacity)
        #expect(!history.isWide)
        #expect(history.storageBytes <= 6 * 1_024, "\(history.storageBytes) bytes for a full row")
        #expect(history.storageBytes >= PriceHistory.capacity * 2, "a point takes 2 bytes and a bit")
    }

    /// A row that quotes every second, the busy rows issue 18 counts, keeps its gaps as a bit a point:
    /// under 4 KB full. One whose points are all further apart pays a byte a point more.
    @Test func aRowThatQuotesEverySecondTakesUnderFourKilobytes() {
        let busy = Self.fullRow { ExactDecimal(units: 15_000_000_000 + Int64($0 % 97 - 48) * 1_000_000) }
        #expect(busy.storageBytes <= 4 * 1_024, "\(busy.storageBytes) bytes for a full row")
        var sparse = PriceHistory()
        for point in 0..<(PriceHistory.capacity * 2) {
            sparse.record(ExactDecimal(units: 15_000_000_000 + Int64(point % 13) * 1_000_000), at: Self.at(Double(point * 3)))
        }
        #expect(sparse.count == PriceHistory.capacity)
        #expect(Self.seconds(sparse) == (PriceHistory.capacity..<(PriceHistory.capacity * 2)).map { Double($0 * 3) })
        #expect(sparse.storageBytes <= 6 * 1_024, "\(sparse.storageBytes) bytes for a full row 3 s apart")
    }

    /// Gaps of 1 s, a few seconds and over 255 s, mixed, around the ring's seam many times: every time
    /// comes back, and the queue of gaps stays as long as the ring needs.
    @Test func mixedGapsSurviveManyTurnsOfTheRing() {
        var history = PriceHistory()
        var times: [Double] = []
        var second = 0.0
        for point in 0..<(PriceHistory.capacity * 5 + 77) {
            second += [1, 1, 1, 7, 1, 300, 2, 1][point % 8]
            times.append(second)
            history.record(ExactDecimal(units: 15_000_000_000 + Int64(point % 31) * 1_000_000), at: Self.at(second))
        }
        #expect(Self.seconds(history) == Array(times.suffix(PriceHistory.capacity)))
        #expect(history.storageBytes <= 8 * 1_024, "\(history.storageBytes) bytes")
    }

    @Test func aRowWithAFewPointsStaysSmall() {
        let history = Self.fullRow(seconds: 5) { ExactDecimal($0 + 100) }
        #expect(history.storageBytes <= 128, "\(history.storageBytes) bytes for 5 points")
    }

    @Test func afterWrappingItKeepsExactlyTheLastThirtyMinutes() {
        let total = PriceHistory.capacity * 2 + 123
        let history = Self.fullRow(seconds: total) { ExactDecimal(units: 10_000_000_000 + Int64($0) * 10_000) }
        let kept = (total - PriceHistory.capacity)..<total
        #expect(history.count == PriceHistory.capacity)
        #expect(Self.seconds(history) == kept.map(Double.init))
        #expect(Self.prices(history) == kept.map { ExactDecimal(units: 10_000_000_000 + Int64($0) * 10_000) })
        #expect(history.range == ExactDecimal(units: 10_000_000_000 + Int64(kept.lowerBound) * 10_000)
            ... ExactDecimal(units: 10_000_000_000 + Int64(kept.upperBound - 1) * 10_000))
    }

    /// A bad tick far from the rest, negative prices, and the extremes of `ExactDecimal` come back exactly.
    @Test func largeJumpsAndNegativePricesStayExact() {
        var history = PriceHistory()
        let prices: [ExactDecimal] = [
            exactDecimal("150.25"), exactDecimal("150.26"), exactDecimal("90000000000"), exactDecimal("150.27"),
            exactDecimal("-37.63"), exactDecimal("0.00000001"), -ExactDecimal.max, .max, exactDecimal("150.2500001"),
        ]
        for (second, price) in prices.enumerated() { history.record(price, at: Self.at(Double(second))) }
        #expect(Self.prices(history) == prices)
        #expect(history.range == -ExactDecimal.max...ExactDecimal.max)
        #expect(history.isWide, "a spread of 180 billion does not fit 16-bit ticks")
    }

    /// A wide row goes back to the narrow form once the jump has left its 30 minutes.
    @Test func aRowThatWentWideNarrowsAgainOnceTheJumpIsGone() {
        var history = PriceHistory()
        history.record(exactDecimal("150.25"), at: Self.at(0))
        history.record(exactDecimal("999999.99"), at: Self.at(1))
        #expect(history.isWide)
        for second in 2..<(PriceHistory.capacity * 3) {
            history.record(ExactDecimal(units: 15_000_000_000 + Int64(second % 50) * 1_000_000), at: Self.at(Double(second)))
        }
        #expect(!history.isWide)
        #expect(history.storageBytes <= 6 * 1_024)
        #expect(Self.prices(history).last == ExactDecimal(units: 15_000_000_000 + Int64((PriceHistory.capacity * 3 - 1) % 50) * 1_000_000))
    }

    /// Prices with 8 decimals (crypto) that move by more than 32,767 of their last digit re-encode and
    /// stay exact.
    @Test func eightDecimalPricesThatMoveFarStayExact() {
        let history = Self.fullRow { ExactDecimal(units: 8_310_000 + Int64($0) * 37 + Int64($0 % 3)) }
        #expect(Self.prices(history) == (0..<PriceHistory.capacity).map { ExactDecimal(units: 8_310_000 + Int64($0) * 37 + Int64($0 % 3)) })
    }

    /// The newest point sits just before the oldest in a wrapped ring: a second price in its second
    /// replaces it there, and a time from an older clock lands on it too.
    @Test func sameSecondAndOlderTimesReplaceTheNewestAtTheRingsSeam() {
        var history = Self.fullRow(seconds: PriceHistory.capacity + 7) { ExactDecimal($0) }
        history.record(exactDecimal("12.5"), at: Self.at(Double(PriceHistory.capacity + 6) + 0.9))
        history.record(exactDecimal("12.75"), at: Self.at(3))
        let points = history.points(since: .distantPast)
        #expect(points.count == PriceHistory.capacity)
        #expect(points.last?.price == exactDecimal("12.75"))
        #expect(points.last?.time == Self.at(Double(PriceHistory.capacity + 6)))
        #expect(points.first?.price == ExactDecimal(7))
        #expect(history.range == ExactDecimal(7)...ExactDecimal(PriceHistory.capacity + 5))
    }

    @Test func aTimeInsideASecondCountsAsThatSecond() {
        var history = PriceHistory()
        history.record(1, at: Self.at(10.2))
        history.record(2, at: Self.at(10.8))
        history.record(3, at: Self.at(11.1))
        #expect(Self.seconds(history) == [10, 11])
        #expect(Self.prices(history) == [2, 3])
    }

    /// Gaps longer than one byte of seconds: a row quiet for 20 minutes, and one quiet for days, then
    /// active again, keep their times, also after those points become the oldest and leave.
    @Test func gapsLongerThanAByteKeepTheirTimes() {
        var history = PriceHistory()
        var expected: [Double] = []
        let days: Double = 3 * 86_400
        for second: Double in [0, 1, 256, 257, 1_457, 1_458, 1_458 + days, 1_459 + days] {
            history.record(ExactDecimal(Int(second) % 1_000), at: Self.at(second))
            expected.append(second)
        }
        #expect(Self.seconds(history) == expected)
        let restart = 1_460 + 3 * 86_400
        for second in restart..<(restart + PriceHistory.capacity - 2) {
            history.record(ExactDecimal(second % 1_000), at: Self.at(Double(second)))
            expected.append(Double(second))
        }
        #expect(Self.seconds(history) == Array(expected.suffix(PriceHistory.capacity)))
        #expect(Self.seconds(history).first == Double(1_458 + 3 * 86_400), "the ring has dropped the first six points and both long gaps")
        #expect(Self.prices(history).first == ExactDecimal(658))
    }

    @Test func pointsSinceIncludesAPointExactlyAtTheStart() {
        let history = Self.fullRow(seconds: 10) { ExactDecimal($0) }
        #expect(history.points(since: Self.at(7)).map(\.price) == [7, 8, 9])
        #expect(history.points(since: Self.at(6.5)).map(\.price) == [7, 8, 9])
        #expect(history.points(since: Self.at(9.01)).isEmpty)
        #expect(history.points(since: Self.at(-5)).count == 10)
        #expect(PriceHistory().points(since: .distantPast).isEmpty)
        #expect(PriceHistory().range == nil)
    }

    /// The same points reached through a wrapped ring and a re-encode equal (and hash like) the same
    /// points recorded straight.
    @Test func equalityIsOverThePointsNotTheLayout() {
        let straight = Self.fullRow { ExactDecimal($0 + 100) }
        var wrapped = PriceHistory()
        wrapped.record(exactDecimal("77777777.77777777"), at: Self.at(-600))
        for second in -500..<PriceHistory.capacity { wrapped.record(ExactDecimal(second + 100), at: Self.at(Double(second))) }
        #expect(wrapped == straight)
        #expect(wrapped.hashValue == straight.hashValue)
        var different = straight
        different.record(exactDecimal("1899.00000001"), at: Self.at(Double(PriceHistory.capacity - 1)))
        #expect(different != straight, "same times, the newest price moved by one unit")
        #expect(PriceHistory() == PriceHistory())
        let three = Self.fullRow(seconds: 3) { ExactDecimal($0) }, two = Self.fullRow(seconds: 2) { ExactDecimal($0) }
        #expect(three != two)
    }

    /// Against the plain arrays it replaced, over a seeded mix of steps, jumps, repeats, older clocks and
    /// gaps: the same points and range after every record.
    @Test func matchesThePlainArraysItReplaced() {
        var history = PriceHistory()
        var model: [(second: Double, price: ExactDecimal)] = []
        var random = SplitMix64(seed: 18)
        var second = 0.0
        var units: Int64 = 15_000_000_000
        for step in 0..<6_000 {
            let roll = random.next() % 100
            switch roll {
            case 0..<70: second += 1
            case 70..<80: break
            case 80..<85: second -= Double(random.next() % 30)
            case 85..<90: second += Double(random.next() % 2_000)
            default: second += Double(random.next() % 5)
            }
            let move = random.next() % 1_000
            switch move {
            case 0..<5: units = Int64(random.next() % 2_000_000_000_000) - 1_000_000_000_000
            case 5..<10: units += 1
            default: units += (Int64(random.next() % 7) - 3) * 1_000_000
            }
            let price = ExactDecimal(units: units)
            let time = Self.at(second + 0.25)
            history.record(price, at: time)
            let whole = (second + 0.25 + Self.t0.timeIntervalSinceReferenceDate).rounded(.down)
            if let last = model.last, whole <= last.second {
                model[model.count - 1].price = price
            } else {
                model.append((whole, price))
                if model.count > PriceHistory.capacity { model.removeFirst() }
            }
            if step % 97 == 0 || step > 5_900 {
                let points = history.points(since: .distantPast)
                #expect(points.map(\.time.timeIntervalSinceReferenceDate) == model.map(\.second), "step \(step)")
                #expect(points.map(\.price) == model.map(\.price), "step \(step)")
                let prices = model.map(\.price)
                #expect(history.range == prices.min().flatMap { low in prices.max().map { low...$0 } }, "step \(step)")
            }
        }
    }
}
