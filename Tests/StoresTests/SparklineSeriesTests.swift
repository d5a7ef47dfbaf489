import Domain
import Foundation
import Stores
import Testing

/// The sparkline's digest of a row's prices (issue 17, item 2).
@Suite struct SparklineSeriesTests {
    /// On a bucket boundary of a one-minute window (2-second buckets).
    static let t0 = Date(timeIntervalSinceReferenceDate: 785_592_800)

    static func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    @Test func aBucketKeepsItsLastPriceAndAPriceHoldsUntilTheNext() {
        var series = SparklineSeries(window: 60)
        #expect(series.bucketSeconds == 2)
        #expect(series.isEmpty)
        series.record(10, at: Self.at(0))
        series.record(11, at: Self.at(4))
        series.record(12, at: Self.at(5))
        let prices = series.prices(endingAt: Self.at(5))
        #expect(prices.count == SparklineSeries.bucketCount)
        #expect(prices.prefix(27).allSatisfy { $0 == nil }, "nothing before the first price")
        #expect(Array(prices.suffix(3)) == [10, 10, 12], "the empty bucket carries 10; 12 replaced 11 in its bucket")
    }

    /// With no quote for a while the last price holds across the window; once buckets leave the ring,
    /// their last price is carried in at the window's start.
    @Test func oldPricesLeaveTheWindowButTheLastOneHolds() {
        var series = SparklineSeries(window: 60)
        series.record(10, at: Self.at(0))
        series.record(12, at: Self.at(4))
        #expect(series.prices(endingAt: Self.at(100)).allSatisfy { $0 == 12 })
        series.record(13, at: Self.at(200))
        let prices = series.prices(endingAt: Self.at(200))
        #expect(prices.dropLast().allSatisfy { $0 == 12 })
        #expect(prices.last == 13)
    }

    /// A time before the newest bucket (another clock) counts as the newest bucket, as in PriceHistory.
    @Test func anEarlierTimeUpdatesTheNewestBucket() {
        var series = SparklineSeries(window: 60)
        series.record(10, at: Self.at(10))
        series.record(9, at: Self.at(2))
        #expect(series.prices(endingAt: Self.at(10)).last == 9)
    }

    @Test func theQuoteStoreKeepsOneSeriesPerEntryAtTheSameIndex() {
        var store = QuoteStore(sparklineWindow: 60)
        let apple = QuoteKey(brandID: "alpha", symbol: "AAPL")
        let microsoft = QuoteKey(brandID: "alpha", symbol: "MSFT")
        store.record(.success(CommonQuote(symbol: "AAPL", last: 190, timestamp: Self.t0)), for: apple, receivedAt: Self.t0)
        store.record(.success(CommonQuote(symbol: "MSFT", last: 400, timestamp: Self.t0)), for: microsoft, receivedAt: Self.t0)
        #expect(store.sparklines.count == store.latest.count)
        #expect(store.sparklines[store.place(for: microsoft)].prices(endingAt: Self.t0).last == 400)
        store.keepOnly(["MSFT"])
        #expect(store.sparklines.count == 1)
        #expect(store.sparklines[store.place(for: microsoft)].prices(endingAt: Self.t0).last == 400)
        #expect(store.sparklines[0].window == 60)
    }
}
