import Domain
import Foundation

/// A row's recent prices at sparkline resolution: the last price in each of `bucketCount` equal slices of
/// the sparkline's window, recorded by `QuoteStore` from the same quotes as the row's `PriceHistory`.
///
/// Why a digest beside the history rather than a sample of it: every row of a frame draws one, and
/// sampling a 30-minute history for each of 1,000 rows (30 binary searches a row) costs more than the
/// rest of the frame together, while reading 30 numbers costs what a row costs. The digest is updated in
/// O(1) per quote. Memory: 30 prices of 8 bytes a key once it has a price.
public struct SparklineSeries: Sendable, Hashable {
    /// Buckets in the window: the widest sparkline the table draws is one cell per bucket.
    public static let bucketCount = 30
    /// The window's length divided by `bucketCount`, at least a second.
    public let bucketSeconds: Double

    /// Where no quote came in a bucket, and nothing is known yet.
    static let missing = Int64.min
    /// The prices' units, one slot per bucket, reused in a ring; empty until the first price.
    private var ring: [Int64] = []
    /// The absolute number of the newest bucket in the ring (seconds since the reference date ÷ `bucketSeconds`).
    private var newest: Int64 = 0
    /// The last price of the buckets that left the ring: it still holds at the window's start.
    private var carried: Int64 = missing

    public init(window: TimeInterval) {
        bucketSeconds = max(1, window / Double(Self.bucketCount))
    }

    /// The window this series covers.
    public var window: TimeInterval { bucketSeconds * Double(Self.bucketCount) }

    public var isEmpty: Bool { ring.isEmpty }

    /// Records `price` at `time`; a later price in the same bucket replaces the earlier one. A time before
    /// the newest bucket (another clock) is taken as the newest bucket's, as `PriceHistory` does.
    public mutating func record(_ price: ExactDecimal, at time: Date) {
        let bucket = bucketNumber(of: time)
        if ring.isEmpty {
            ring = Array(repeating: Self.missing, count: Self.bucketCount)
            newest = bucket
        }
        if bucket > newest {
            // The slot of each new bucket holds the oldest one, which leaves the window.
            let steps = min(bucket - newest, Int64(Self.bucketCount))
            for step in 1...steps {
                let slot = Self.slot(newest + step)
                if ring[slot] != Self.missing { carried = ring[slot] }
                ring[slot] = Self.missing
            }
            newest = bucket
        }
        ring[Self.slot(newest)] = price.units
    }

    /// The window ending at `now`'s bucket, oldest first, `bucketCount` prices in units: each bucket holds
    /// the last price known by its end (a price holds until the next), `Int64.min` before the first.
    /// Read in place: the table calls this for every row of a frame.
    public func withBuckets<Result>(endingAt now: Date, _ body: (UnsafeBufferPointer<Int64>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: Int64.self, capacity: Self.bucketCount) { out in
            defer { out.deinitialize() }
            guard !ring.isEmpty else {
                out.initialize(repeating: Self.missing)
                return body(UnsafeBufferPointer(out))
            }
            let count = Int64(Self.bucketCount)
            let end = bucketNumber(of: now)
            let start = end - count + 1
            let oldest = newest - count + 1
            var current = carried
            // One remainder, then slots step along the ring: a frame reads 30 buckets on each of 1,000 rows.
            ring.withUnsafeBufferPointer { ring in
                var bucket = oldest
                var slot = Self.slot(oldest)
                while bucket < min(start, newest + 1) {
                    if ring[slot] != Self.missing { current = ring[slot] }
                    bucket += 1
                    slot = slot == Self.bucketCount - 1 ? 0 : slot + 1
                }
                slot = Self.slot(start)
                for index in 0..<Self.bucketCount {
                    let bucket = start + Int64(index)
                    if bucket >= oldest, bucket <= newest, ring[slot] != Self.missing { current = ring[slot] }
                    out.initializeElement(at: index, to: current)
                    slot = slot == Self.bucketCount - 1 ? 0 : slot + 1
                }
            }
            return body(UnsafeBufferPointer(out))
        }
    }

    /// `withBuckets(endingAt:)` as prices, nil before the first (tests and slow paths).
    public func prices(endingAt now: Date) -> [ExactDecimal?] {
        withBuckets(endingAt: now) { buckets in buckets.map { $0 == Self.missing ? nil : ExactDecimal(units: $0) } }
    }

    /// The absolute number of the bucket holding `time`: `withBuckets(endingAt:)` gives the same prices for
    /// two times in the same bucket (a cache of the drawn line holds until this moves).
    public func bucketNumber(of time: Date) -> Int64 {
        Int64((time.timeIntervalSinceReferenceDate / bucketSeconds).rounded(.down))
    }

    private static func slot(_ bucket: Int64) -> Int {
        let count = Int64(bucketCount)
        return Int(((bucket % count) + count) % count)
    }
}
