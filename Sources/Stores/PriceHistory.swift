import Domain
import Foundation

/// The recent prices of one row, for charts: at most one point a second (the last price in that
/// second), for the last 30 minutes. Memory is bounded: 1,800 points of 16 bytes (an 8-byte time and
/// an 8-byte exact price), about 29 KB for a row that has streamed for half an hour, however fast its
/// quotes come.
public struct PriceHistory: Sendable, Hashable {
    public static let resolution: TimeInterval = 1
    public static let span: TimeInterval = 30 * 60
    public static let capacity = Int(span / resolution)

    /// Seconds since the reference date, oldest first, one per second at most.
    private var times: [Double] = []
    /// The prices, exactly as quoted (`ExactDecimal` is one `Int64`, as small as a `Double`).
    private var prices: [ExactDecimal] = []

    public init() {}

    public var count: Int { times.count }

    /// Records `price` at `time`. A later price in the same second replaces the earlier one; a time older
    /// than the last point (another clock) is taken as the last point's.
    public mutating func record(_ price: ExactDecimal, at time: Date) {
        let second = (time.timeIntervalSinceReferenceDate / Self.resolution).rounded(.down) * Self.resolution
        if let last = times.last, second <= last {
            prices[prices.count - 1] = price
            return
        }
        times.append(second)
        prices.append(price)
        // Trim in steps, so a quote does not move the whole array each second.
        if times.count > Self.capacity + 60 {
            times.removeFirst(times.count - Self.capacity)
            prices.removeFirst(prices.count - Self.capacity)
        }
    }

    /// The points at or after `start`, oldest first.
    public func points(since start: Date) -> [(time: Date, price: ExactDecimal)] {
        let from = start.timeIntervalSinceReferenceDate
        let first = times.firstIndex { $0 >= from } ?? times.count
        return (first..<times.count).map { (Date(timeIntervalSinceReferenceDate: times[$0]), prices[$0]) }
    }

    /// The lowest and highest price recorded, nil when empty.
    public var range: ClosedRange<ExactDecimal>? {
        guard let low = prices.min(), let high = prices.max() else { return nil }
        return low...high
    }
}
