import Domain
import Foundation

/// The recent prices of one row, for charts: at most one point a second (the last price in that
/// second), the last 1,800 points, which is the last 30 minutes of a row that quotes every second.
///
/// Memory is bounded and small, because issue 18 wants 4 × 500 rows with full histories inside 50 MB
/// of RSS (about 6 KB a row): a point costs 3 bytes, so a full row is about 5.5 KB. The points sit in a
/// ring of at most `capacity` slots, grown in steps so that a row with a few points stays small:
/// - a time is the gap in seconds since the previous point in one byte (points are at least a second
///   apart); a gap over 255 s (a row that was quiet for a while) is stored as 0 and its length kept in
///   `longGaps`, so any gap works;
/// - a price is an `Int16` count of ticks from a base price of the row, where the tick is the largest
///   power of ten (at most one whole unit) that divides every difference, so cent prices count cents.
///   A price that does not fit re-encodes the row with a finer tick or a new base; a row whose prices
///   span more than `narrowSpan` ticks keeps its prices as full `ExactDecimal` units (8 bytes a point)
///   and tries the narrow form again every `capacity` points. Either way every price is kept exactly.
///
/// Equality and hashing are over the points (time and exact price), not the layout: two histories with
/// the same points are equal whatever their ring position or encoding.
public struct PriceHistory: Sendable, Hashable {
    public static let resolution: TimeInterval = 1
    public static let span: TimeInterval = 30 * 60
    public static let capacity = Int(span / resolution)

    /// The widest spread of a row's prices, in ticks, that stays narrow: three quarters of the `Int16`
    /// range, so that after a re-encode around the middle there is room for at least 8,000 ticks of
    /// drift either way before the next one (a trending row does not re-encode on every point).
    static let narrowSpan: Int64 = 49_151
    /// The coarsest tick: one whole unit of the price.
    private static let coarsestTick = ExactDecimal.unitsPerOne

    /// Per slot, the seconds since the previous point (1…255), or 0 for a gap kept in `longGaps`. The
    /// oldest point's byte means nothing: its time is `oldestSecond`. Its count is the number of points.
    private var gaps: [UInt8] = []
    /// The long gaps of the points after the oldest, oldest first.
    private var longGaps: [Int64] = []
    /// Per slot, the price as ticks from `priceBase`; empty while the row is wide.
    private var offsets: [Int16] = []
    /// Per slot, the price's units when the row does not fit `offsets`; empty while the row is narrow.
    private var wideUnits: [Int64] = []
    /// The slot of the oldest point: 0 until the ring is full, then the slot the next point overwrites.
    private var oldestSlot = 0
    /// Whole seconds since the reference date of the oldest and the newest point.
    private var oldestSecond: Int64 = 0
    private var newestSecond: Int64 = 0
    private var priceBase: Int64 = 0
    private var tick: Int64 = PriceHistory.coarsestTick
    /// Prices stored since the row went wide, to try the narrow form again now and then.
    private var pricesSinceWidened = 0

    public init() {}

    public var count: Int { gaps.count }

    /// Bytes the history's storage has allocated for its points (array capacities, headers excluded), for
    /// the memory tests and benchmark.
    var storageBytes: Int {
        gaps.capacity + longGaps.capacity * 8 + offsets.capacity * 2 + wideUnits.capacity * 8
    }

    /// Whether the prices are kept as full units (a spread too wide for the narrow form), for the tests.
    var isWide: Bool { !wideUnits.isEmpty }

    /// Records `price` at `time`. A later price in the same second replaces the earlier one; a time older
    /// than the last point (another clock) is taken as the last point's.
    public mutating func record(_ price: ExactDecimal, at time: Date) {
        let second = Self.wholeSecond(time)
        if !gaps.isEmpty, second <= newestSecond {
            store(price.units, at: slot(of: gaps.count - 1))
            return
        }
        let gap = gaps.isEmpty ? 1 : second - newestSecond
        let gapByte = gap <= Int64(UInt8.max) ? UInt8(gap) : 0
        let slot: Int
        if gaps.count < Self.capacity {
            if gaps.isEmpty { oldestSecond = second }
            Self.growIfFull(&gaps)
            gaps.append(gapByte)
            if wideUnits.isEmpty {
                Self.growIfFull(&offsets)
                offsets.append(0)
            } else {
                Self.growIfFull(&wideUnits)
                wideUnits.append(0)
            }
            slot = gaps.count - 1
        } else {
            // The ring is full: the second-oldest point becomes the oldest, and the new point takes the
            // oldest's slot.
            slot = oldestSlot
            oldestSlot = oldestSlot + 1 == gaps.count ? 0 : oldestSlot + 1
            let nextGap = gaps[oldestSlot]
            oldestSecond += nextGap != 0 ? Int64(nextGap) : longGaps.removeFirst()
            gaps[slot] = gapByte
        }
        if gapByte == 0 { longGaps.append(gap) }
        newestSecond = second
        store(price.units, at: slot)
    }

    /// The points at or after `start`, oldest first.
    public func points(since start: Date) -> [(time: Date, price: ExactDecimal)] {
        let from = start.timeIntervalSinceReferenceDate
        var result: [(time: Date, price: ExactDecimal)] = []
        var cursor = PointCursor(self)
        while let point = cursor.next() {
            let time = Double(point.second) * Self.resolution
            guard time >= from else { continue }
            if result.isEmpty { result.reserveCapacity(count - cursor.index + 1) }
            result.append((Date(timeIntervalSinceReferenceDate: time), ExactDecimal(units: point.units)))
        }
        return result
    }

    /// The lowest and highest price recorded, nil when empty. A pass over the narrow offsets (1,800
    /// `Int16`s for a full row) rather than a running minimum and maximum, which the ring's trimming would
    /// make cost a pass whenever the extreme left.
    public var range: ClosedRange<ExactDecimal>? {
        if !wideUnits.isEmpty {
            guard let low = wideUnits.min(), let high = wideUnits.max() else { return nil }
            return ExactDecimal(units: low)...ExactDecimal(units: high)
        }
        guard var low = offsets.first else { return nil }
        var high = low
        for offset in offsets {
            low = Swift.min(low, offset)
            high = Swift.max(high, offset)
        }
        return ExactDecimal(units: priceBase + Int64(low) * tick)...ExactDecimal(units: priceBase + Int64(high) * tick)
    }

    public static func == (lhs: PriceHistory, rhs: PriceHistory) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var left = PointCursor(lhs), right = PointCursor(rhs)
        while let point = left.next() {
            guard point == right.next() else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        var cursor = PointCursor(self)
        while let point = cursor.next() {
            hasher.combine(point.second)
            hasher.combine(point.units)
        }
    }

    // MARK: - Storage

    /// A point in whole seconds and price units, as the storage decodes it.
    struct Point: Equatable {
        var second: Int64
        var units: Int64
    }

    /// Walks the points oldest first without allocating (equality, hashing and `points(since:)`).
    struct PointCursor {
        let history: PriceHistory
        /// How many points `next()` has returned.
        private(set) var index = 0
        private var second: Int64
        private var longGapIndex = 0

        init(_ history: PriceHistory) {
            self.history = history
            second = history.oldestSecond
        }

        mutating func next() -> Point? {
            guard index < history.count else { return nil }
            let slot = history.slot(of: index)
            if index > 0 {
                let gap = history.gaps[slot]
                if gap != 0 {
                    second += Int64(gap)
                } else {
                    second += history.longGaps[longGapIndex]
                    longGapIndex += 1
                }
            }
            index += 1
            return Point(second: second, units: history.units(at: slot))
        }
    }

    /// The slot of the point `index` places after the oldest.
    private func slot(of index: Int) -> Int {
        let slot = oldestSlot + index
        return slot < gaps.count ? slot : slot - gaps.count
    }

    private func units(at slot: Int) -> Int64 {
        wideUnits.isEmpty ? priceBase + Int64(offsets[slot]) * tick : wideUnits[slot]
    }

    /// Puts `units` in `slot`, re-encoding the row when it does not fit the narrow form.
    private mutating func store(_ units: Int64, at slot: Int) {
        if wideUnits.isEmpty {
            let (difference, overflow) = units.subtractingReportingOverflow(priceBase)
            if !overflow, difference % tick == 0, let offset = Int16(exactly: difference / tick) {
                offsets[slot] = offset
                return
            }
        } else {
            wideUnits[slot] = units
            pricesSinceWidened += 1
            guard pricesSinceWidened >= Self.capacity else { return }
        }
        reencode(setting: units, at: slot)
    }

    /// Chooses the encoding for the row's prices with `units` in `slot`: the coarsest tick that divides
    /// every difference from the lowest price, the base in the middle of the spread; wide when the spread
    /// is more than `narrowSpan` ticks. Keeps the slots where they are.
    private mutating func reencode(setting units: Int64, at slot: Int) {
        var prices = (0..<gaps.count).map { self.units(at: $0) }
        prices[slot] = units
        let low = prices.min() ?? units, high = prices.max() ?? units
        let (spread, overflow) = high.subtractingReportingOverflow(low)
        if !overflow {
            var tick = Self.coarsestTick
            for price in prices {
                // Every price is at least `low`, and the spread did not overflow, so neither does this.
                let difference = price - low
                while difference % tick != 0 { tick /= 10 }
            }
            let steps = spread / tick
            if steps <= Self.narrowSpan {
                let base = low + steps / 2 * tick
                var narrow: [Int16] = []
                narrow.reserveCapacity(Swift.max(gaps.capacity, prices.count))
                for price in prices { narrow.append(Int16((price - base) / tick)) }
                self.tick = tick
                priceBase = base
                offsets = narrow
                wideUnits = []
                return
            }
        }
        var wide: [Int64] = []
        wide.reserveCapacity(Swift.max(gaps.capacity, prices.count))
        wide.append(contentsOf: prices)
        wideUnits = wide
        offsets = []
        pricesSinceWidened = 0
    }

    /// Before an append to a full array: doubles its room (from 16) up to `capacity`, where the default
    /// growth would round 1,800 up to 2,048 or more.
    private static func growIfFull<Element>(_ array: inout [Element]) {
        guard array.count == array.capacity else { return }
        array.reserveCapacity(Swift.min(capacity, Swift.max(16, array.capacity * 2)))
    }

    /// `time` in whole seconds (`resolution`) since the reference date, rounded down. Times beyond
    /// ±2⁵² s (no clock gives them) are clamped, so gaps cannot overflow; NaN counts as the earliest.
    private static func wholeSecond(_ time: Date) -> Int64 {
        let seconds = (time.timeIntervalSinceReferenceDate / resolution).rounded(.down)
        let limit = 4_503_599_627_370_496.0
        guard !seconds.isNaN else { return -Int64(limit) }
        return Int64(Swift.min(Swift.max(seconds, -limit), limit))
    }
}
