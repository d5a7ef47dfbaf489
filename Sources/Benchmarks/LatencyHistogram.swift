/// Latencies in nanoseconds, log-linear with 32 steps per power of two (about 3 % resolution), so a
/// thousand subscribers can each record millions of deliveries in fixed memory.
struct LatencyHistogram: Sendable {
    private static let subBucketBits = 5
    private static let subBuckets = 1 << subBucketBits
    private static let bucketCount = (64 - subBucketBits + 1) * subBuckets

    private var counts = [UInt32](repeating: 0, count: LatencyHistogram.bucketCount)
    private(set) var count = 0
    private(set) var maximum: UInt64 = 0

    mutating func record(_ nanoseconds: UInt64) {
        counts[Self.index(of: nanoseconds)] &+= 1
        count += 1
        if nanoseconds > maximum { maximum = nanoseconds }
    }

    mutating func merge(_ other: LatencyHistogram) {
        guard other.count > 0 else { return }
        for index in counts.indices where other.counts[index] != 0 { counts[index] &+= other.counts[index] }
        count += other.count
        maximum = max(maximum, other.maximum)
    }

    /// The value at `fraction` (0...1), as the upper edge of its bucket, never above the maximum seen.
    func percentile(_ fraction: Double) -> UInt64? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for (index, bucketCount) in counts.enumerated() where bucketCount != 0 {
            seen += Int(bucketCount)
            if seen >= rank { return min(Self.upperEdge(of: index), maximum) }
        }
        return maximum
    }

    private static func index(of value: UInt64) -> Int {
        guard value >= UInt64(subBuckets) else { return Int(value) }
        let topBit = 63 - value.leadingZeroBitCount
        let shift = topBit - subBucketBits
        let mantissa = Int(value >> UInt64(shift))  // in subBuckets..<2*subBuckets
        return (shift + 1) * subBuckets + (mantissa - subBuckets)
    }

    private static func upperEdge(of index: Int) -> UInt64 {
        guard index >= subBuckets else { return UInt64(index) }
        let shift = index / subBuckets - 1
        let mantissa = UInt64(subBuckets + index % subBuckets)
        let edge = (mantissa + 1).multipliedReportingOverflow(by: UInt64(1) << UInt64(shift))
        return edge.overflow ? UInt64.max : edge.partialValue - 1
    }
}
