import Domain
import Foundation
import Testing
@testable import Stores

/// The benchmarks' full histories (`HistoryBackfill`): off unless the environment asks, and then every
/// key's first quote finds a history as full, and stored as compactly, as 30 minutes of quotes leave.
@Suite struct HistoryBackfillTests {
    let aapl = QuoteKey(brandID: "alpha", symbol: "AAPL")
    let t0 = Date(timeIntervalSinceReferenceDate: 800_000_000.5)

    @Test func theEnvironmentTurnsItOnWithMinutes() throws {
        #expect(try HistoryBackfill.from(environment: [:]).get() == nil)
        #expect(try HistoryBackfill.from(environment: [HistoryBackfill.environmentVariable: ""]).get() == nil)
        #expect(try HistoryBackfill.from(environment: [HistoryBackfill.environmentVariable: "30"]).get() == HistoryBackfill(seconds: 1_800))
        #expect(try HistoryBackfill.from(environment: [HistoryBackfill.environmentVariable: "1"]).get() == HistoryBackfill(seconds: 60))
    }

    @Test(arguments: ["0", "31", "-5", "ten", "30 ", "\u{1b}[2J"])
    func anythingButOneToThirtyMinutesIsRefusedByName(_ text: String) {
        guard case .failure(let error) = HistoryBackfill.from(environment: [HistoryBackfill.environmentVariable: text]) else {
            Issue.record("\(text) was taken")
            return
        }
        #expect(error.description.hasPrefix("COMMONBROKER_TEST_HISTORY_MINUTES="))
        #expect(error.description.contains("from 1 to 30"))
        #expect(!error.description.contains("\u{1b}"), "text from the environment is escaped")
    }

    @Test func thePointsAreOneASecondLeadingToThePrice() throws {
        let price = exactDecimal("190.37")
        let points = HistoryBackfill(seconds: 1_800).points(before: t0, leadingTo: price, seed: 7)
        #expect(points.count == 1_800)
        let newest = try #require(points.last), oldest = try #require(points.first)
        #expect(newest.time == Date(timeIntervalSinceReferenceDate: 799_999_999))
        #expect(oldest.time == Date(timeIntervalSinceReferenceDate: 799_998_200))
        #expect(zip(points, points.dropFirst()).allSatisfy { $1.time.timeIntervalSince($0.time) == 1 })
        let cent = exactDecimal("0.01")
        #expect((newest.price - price).magnitude <= cent)
        #expect(zip(points, points.dropFirst()).allSatisfy { ($1.price - $0.price).magnitude <= cent })
        #expect(points.allSatisfy { ($0.price.units % cent.units) == 0 }, "cent prices, as the row's")
        #expect(Set(points.map(\.price)).count > 10, "a walk, not a flat line")
    }

    @Test func theWalkIsTheSameForAKeyAndDiffersBetweenKeys() {
        let backfill = HistoryBackfill(seconds: 600)
        let seed = HistoryBackfill.seed(for: aapl)
        #expect(seed == HistoryBackfill.seed(for: QuoteKey(brandID: "alpha", symbol: "AAPL")))
        #expect(seed != HistoryBackfill.seed(for: QuoteKey(brandID: "beta", symbol: "AAPL")))
        #expect(seed != HistoryBackfill.seed(for: QuoteKey(brandID: "alphaA", symbol: "APL")), "the id and the symbol are kept apart")
        let price = exactDecimal("42.00")
        #expect(backfill.points(before: t0, leadingTo: price, seed: seed).map(\.price)
            == backfill.points(before: t0, leadingTo: price, seed: seed).map(\.price))
        #expect(backfill.points(before: t0, leadingTo: price, seed: seed).map(\.price)
            != backfill.points(before: t0, leadingTo: price, seed: seed + 1).map(\.price))
    }

    @Test func aPennyPriceNeverWalksToZero() {
        let points = HistoryBackfill(seconds: 1_800).points(before: t0, leadingTo: exactDecimal("0.01"), seed: 3)
        #expect(points.allSatisfy { $0.price > 0 })
    }

    @Test func aFirstQuoteFindsAFullNarrowHistory() throws {
        var store = QuoteStore(backfill: HistoryBackfill())
        store.record(.success(CommonQuote(symbol: "AAPL", last: exactDecimal("190.37"), timestamp: t0)), for: aapl, receivedAt: t0)
        let history = try #require(store.history(for: aapl))
        #expect(history.count == PriceHistory.capacity)
        #expect(!history.isWide)
        #expect(history.storageBytes <= 5_500, "as compact as a live row's: \(history.storageBytes) bytes")
        let newest = try #require(history.points(since: .distantPast).last)
        #expect(newest.price == exactDecimal("190.37"))
        #expect(newest.time == Date(timeIntervalSinceReferenceDate: 800_000_000))
        let index = store.place(for: aapl)
        #expect(!store.sparklines[index].isEmpty)

        // Later quotes are recorded as ever; the history is not filled again.
        store.record(.success(CommonQuote(symbol: "AAPL", last: exactDecimal("190.40"), timestamp: t0 + 1)), for: aapl, receivedAt: t0 + 1)
        let later = try #require(store.history(for: aapl))
        #expect(later.count == PriceHistory.capacity)
        #expect(later.points(since: .distantPast).last?.price == exactDecimal("190.40"))
    }

    @Test func withoutItAFirstQuoteIsOnePoint() {
        var store = QuoteStore()
        store.record(.success(CommonQuote(symbol: "AAPL", last: 190, timestamp: t0)), for: aapl, receivedAt: t0)
        #expect(store.history(for: aapl)?.count == 1)
    }
}
