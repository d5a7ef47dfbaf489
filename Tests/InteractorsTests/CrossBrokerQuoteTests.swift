import Domain
import Foundation
import Interactors
import Testing

/// The cross-broker consolidation (issue 17, item 1): best bid and ask, the freshest last, the
/// disagreement and the flags, as a pure function of observations and the time.
@Suite struct CrossBrokerQuoteTests {
    typealias Observation = CrossBrokerQuote.Observation

    /// A live observation: made and received `age` seconds before t0.
    static func seen(_ last: String?, bid: String? = nil, ask: String? = nil, age: TimeInterval = 1) -> Observation {
        Observation(
            last: last.map(exactDecimal), bid: bid.map(exactDecimal), ask: ask.map(exactDecimal),
            madeAt: last == nil ? nil : t0.addingTimeInterval(-age), receivedAt: last == nil ? nil : t0.addingTimeInterval(-age))
    }

    static func consolidate(_ observations: [Observation], outlier: String = "50") -> CrossBrokerQuote {
        CrossBrokerQuote(observations, now: t0, staleAfter: 30, outlierBasisPoints: exactDecimal(outlier))
    }

    @Test func theBestBidIsTheHighestAndTheBestAskTheLowestWithWhoseTheyAre() {
        let cross = Self.consolidate([
            Self.seen("189.84", bid: "189.83", ask: "189.85"),
            Self.seen("189.86", bid: "189.85", ask: "189.87"),
            Self.seen("189.80", bid: "189.78", ask: "189.82"),
        ])
        #expect(cross.bestBid == CrossBrokerQuote.Pick(source: 1, price: exactDecimal("189.85")))
        #expect(cross.bestAsk == CrossBrokerQuote.Pick(source: 2, price: exactDecimal("189.82")))
        #expect(cross.bestBidSources == CrossBrokerQuote.SourceSet([1]))
        #expect(cross.bestAskSources == CrossBrokerQuote.SourceSet([2]))
        #expect(cross.quotedBids == 3 && cross.quotedAsks == 3)
    }

    /// A tie goes to the broker listed first; every broker at the best price is among its holders.
    @Test func onATieTheFirstBrokerHoldsTheBestAndEveryTiedBrokerIsMarked() {
        let cross = Self.consolidate([
            Self.seen("10.00", bid: "9.98", ask: "10.02"),
            Self.seen("10.00", bid: "9.99", ask: "10.01"),
            Self.seen("10.00", bid: "9.99", ask: "10.01"),
        ])
        #expect(cross.bestBid?.source == 1)
        #expect(cross.bestAsk?.source == 1)
        #expect(cross.bestBidSources == CrossBrokerQuote.SourceSet([1, 2]))
        #expect(cross.bestAskSources == CrossBrokerQuote.SourceSet([1, 2]))
        #expect(cross.disagreementBasisPoints == 0)
    }

    @Test func oneBrokerAloneHoldsEverythingAndDisagreesWithNobody() {
        let cross = Self.consolidate([Self.seen("50.10", bid: "50.09", ask: "50.11")])
        #expect(cross.bestBid?.source == 0 && cross.bestAsk?.source == 0 && cross.last?.source == 0)
        #expect(cross.disagreementBasisPoints == nil)
        #expect(cross.outliers.isEmpty && cross.staleWhileOthersLive.isEmpty)
        #expect(cross.flag(of: 0) == nil)
    }

    /// Brokers that send no bid (a trade-only feed) are skipped for the best bid; with none, there is none.
    @Test func brokersWithoutABidOrAskAreSkipped() {
        let cross = Self.consolidate([
            Self.seen("20.00"),
            Self.seen("20.01", ask: "20.03"),
            Self.seen(nil),
        ])
        #expect(cross.bestBid == nil)
        #expect(cross.bestAsk == CrossBrokerQuote.Pick(source: 1, price: exactDecimal("20.03")))
        #expect(cross.quotedBids == 0 && cross.quotedAsks == 1)
        #expect(cross.disagreementBasisPoints == exactDecimal("4.99875031"), "0.01 of the median 20.005, cut at 8 decimals")
    }

    /// Of the median: 189.80, 189.84, 189.86 differ by 0.06 of 189.84 = 3.16055626… bp, cut toward zero.
    @Test func disagreementIsHighestMinusLowestInBasisPointsOfTheMedian() {
        let cross = Self.consolidate([Self.seen("189.84"), Self.seen("189.86"), Self.seen("189.80")])
        #expect(cross.disagreementBasisPoints == exactDecimal("3.16055625"))
        // An even count's median is the mean of the middle two, exactly: 0.30 of 100.05 (100.00, 100.10 in the middle).
        let even = Self.consolidate([Self.seen("99.90"), Self.seen("100.00"), Self.seen("100.10"), Self.seen("100.20")])
        #expect(even.disagreementBasisPoints == exactDecimal("29.98500749"))
        #expect(CrossBrokerQuote.disagreementBasisPoints(sortedLasts: [exactDecimal("0"), exactDecimal("0")]) == nil, "no median to divide by")
    }

    /// The last is the freshest source's: the latest price made, then the latest received.
    @Test func theLastComesFromTheFreshestSource() {
        let cross = Self.consolidate([Self.seen("10.00", age: 3), Self.seen("10.02", age: 1), Self.seen("10.01", age: 2)])
        #expect(cross.last == CrossBrokerQuote.Pick(source: 1, price: exactDecimal("10.02")))
        var sameTime = [Self.seen("10.00", age: 1), Self.seen("10.05", age: 1)]
        sameTime[1].receivedAt = t0
        #expect(Self.consolidate(sameTime).last?.source == 1, "made at the same time: the one received later")
    }

    /// 101.00 is 98.9 bp from the median of the others (100.01); each of the others is within 2 bp of theirs.
    @Test func aBrokerFarFromTheMedianOfTheOthersIsAnOutlier() {
        let cross = Self.consolidate([Self.seen("100.00"), Self.seen("100.01"), Self.seen("100.02"), Self.seen("101.00")])
        #expect(cross.outliers == CrossBrokerQuote.SourceSet([3]))
        #expect(cross.flag(of: 3) == .outlier)
        #expect(cross.flag(of: 0) == nil)
    }

    /// More than the threshold flags; exactly the threshold does not. 100.50 is 50 bp from 100.00.
    @Test func theThresholdIsExclusiveAndConfigurable() {
        let observations = [Self.seen("100.00"), Self.seen("100.00"), Self.seen("100.50")]
        #expect(Self.consolidate(observations, outlier: "50").outliers.isEmpty)
        #expect(Self.consolidate(observations, outlier: "49.99").outliers == CrossBrokerQuote.SourceSet([2]))
        #expect(Self.consolidate(observations, outlier: "500").outliers.isEmpty)
    }

    /// Three brokers, one off: only it is flagged. The two others' middle prices are each a median, and
    /// the good brokers are near one of them (their mean would be dragged towards the bad price).
    @Test func withThreeBrokersOnlyTheOneOffIsFlagged() {
        let cross = Self.consolidate([Self.seen("131.07"), Self.seen("131.05"), Self.seen("133.20")])
        #expect(cross.outliers == CrossBrokerQuote.SourceSet([2]))
        #expect(cross.flag(of: 0) == nil && cross.flag(of: 1) == nil)
    }

    /// With two brokers each is the other's outlier, so neither is flagged: the flag needs two others.
    @Test func twoBrokersAreNeverOutliers() {
        #expect(Self.consolidate([Self.seen("100.00"), Self.seen("120.00")]).outliers.isEmpty)
    }

    /// A stale broker is flagged while another is live, and its prices no longer count for the best
    /// bid and ask, the last or the disagreement; it is no yardstick for the live ones either.
    @Test func aStaleBrokerWhileOthersAreLiveIsFlaggedAndLeftOut() {
        let cross = Self.consolidate([
            Self.seen("100.00", bid: "99.99", ask: "100.01"),
            Self.seen("100.02", bid: "100.01", ask: "100.03"),
            Self.seen("90.00", bid: "100.50", ask: "90.01", age: 75),
        ])
        #expect(cross.staleWhileOthersLive == CrossBrokerQuote.SourceSet([2]))
        #expect(cross.flag(of: 2) == .staleWhileOthersLive)
        #expect(cross.live == CrossBrokerQuote.SourceSet([0, 1]))
        #expect(cross.bestBid?.source == 1 && cross.bestAsk?.source == 0)
        #expect(cross.disagreementBasisPoints == exactDecimal("1.99980001"))
        #expect(cross.outliers.isEmpty, "two live brokers: no outlier, and the stale price is not compared")
    }

    /// When every broker is stale nobody is flagged for it, and the row still shows what was last known.
    @Test func whenEveryBrokerIsStaleAllCountAndNoneIsFlagged() {
        let cross = Self.consolidate([Self.seen("10.00", bid: "9.99", age: 60), Self.seen("10.10", bid: "10.05", age: 90)])
        #expect(cross.staleWhileOthersLive.isEmpty)
        #expect(cross.bestBid?.source == 1)
        #expect(cross.last?.source == 0)
        #expect(cross.disagreementBasisPoints != nil)
    }

    /// While the market is closed a closing price is the session's last word: live however old, so it is
    /// neither flagged nor left out.
    @Test func aClosingPriceIsNotStale() {
        var closing = Self.seen("100.00", bid: "99.99", age: 3 * 86_400)
        closing.isClosingPrice = true
        let cross = Self.consolidate([closing, Self.seen("100.02", bid: "99.98")])
        #expect(cross.staleWhileOthersLive.isEmpty)
        #expect(cross.live == CrossBrokerQuote.SourceSet([0, 1]))
        #expect(cross.bestBid?.source == 0)
    }

    @Test func noObservationsGiveNothing() {
        let cross = Self.consolidate([])
        #expect(cross.bestBid == nil && cross.bestAsk == nil && cross.last == nil && cross.disagreementBasisPoints == nil)
    }
}
