import Domain
import Foundation

/// The recent prices of one row, for charts: at most one point a second (the last price in that
/// second), the last 1,800 points, which is the last 30 minutes of a row that quotes every second.
///
/// Memory is bounded and small, because issue 18 wants 4 × 500 rows with full histories inside 50 MB
/// of RSS: a point of a row that quotes every second costs a bit and 2 bytes, so a full row is about
/// 3.8 KB (5.6 KB for a row whose points are all further apart). The points sit in a ring of at most
/// `capacity` slots, grown in steps so that a row with a few points stays small:
/// - a time is the gap in seconds since the previous point (points are at least a second apart): a bit
///   per slot says the gap is 1 s, the common case of a busy row; the other gaps wait in a queue in
///   the order of their points, one byte each, and a gap over 255 s (a row that was quiet for a while)
///   is queued as 0 with its length in `longGaps`, so any gap works;
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

    /// The number of points.
    public private(set) var count = 0
    /// A bit per slot (slot `s` is bit `s % 64` of word `s / 64`): set when the point came one second
    /// after the one before it. The oldest point's bit means nothing: its time is `oldestSecond`.
    private var oneSecondGaps: [UInt64] = []
    /// The gaps of the points after the oldest whose bit is clear, oldest first: 2…255 s, or 0 for a gap
    /// kept in `longGaps`. A ring of `otherGapCount` from `otherGapsHead`, grown in steps up to
    /// `capacity`; a point's gap leaves it when the point becomes the oldest.
    private var otherGaps: [UInt8] = []
    private var otherGapsHead = 0
    private var otherGapCount = 0
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

    /// Bytes the history's storage has allocated for its points (array capacities, headers excluded), for
    /// the memory tests and benchmark.
    var storageBytes: Int {
        oneSecondGaps.capacity * 8 + otherGaps.capacity + longGaps.capacity * 8 + offsets.capacity * 2 + wideUnits.capacity * 8
    }

    /// Whether the prices are kept as full units (a spread too wide for the narrow form), for the tests.
    var isWide: Bool { !wideUnits.isEmpty }

    /// Records `price` at `time`. A later price in the same second replaces the earlier one; a time older
    /// than the last point (another clock) is taken as the last point's.
    public mutating func record(_ price: ExactDecimal, at time: Date) {
        let second = Self.wholeSecond(time)
        if count > 0, second <= newestSecond {
            store(price.units, at: slot(of: count - 1))
            return
        }
        let gap = count == 0 ? 1 : second - newestSecond
        let slot: Int
        if count < Self.capacity {
            if count == 0 { oldestSecond = second }
            if count % 64 == 0 {
                Self.growIfFull(&oneSecondGaps, limit: (Self.capacity + 63) / 64, from: 1)
                oneSecondGaps.append(0)
            }
            if wideUnits.isEmpty {
                Self.growIfFull(&offsets)
                offsets.append(0)
            } else {
                Self.growIfFull(&wideUnits)
                wideUnits.append(0)
            }
            slot = count
            count += 1
        } else {
            // The ring is full: the second-oldest point becomes the oldest, and the new point takes the
            // oldest's slot.
            slot = oldestSlot
            oldestSlot = oldestSlot + 1 == count ? 0 : oldestSlot + 1
            oldestSecond += takeGap(of: oldestSlot)
        }
        setGap(gap, of: slot)
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

    private func gapIsOneSecond(_ slot: Int) -> Bool {
        oneSecondGaps[slot >> 6] & (1 << UInt64(slot & 63)) != 0
    }

    /// Records the gap of the point in `slot`, the newest.
    private mutating func setGap(_ gap: Int64, of slot: Int) {
        let bit: UInt64 = 1 << UInt64(slot & 63)
        if gap == 1 {
            oneSecondGaps[slot >> 6] |= bit
            return
        }
        oneSecondGaps[slot >> 6] &= ~bit
        if otherGapCount == otherGaps.count {
            // Full: laid out again from the oldest, with twice the room (from 16) up to `capacity`.
            var grown = (0..<otherGapCount).map { otherGaps[(otherGapsHead + $0) % otherGaps.count] }
            grown.append(contentsOf: repeatElement(0, count: Swift.min(Self.capacity, Swift.max(16, otherGapCount * 2)) - otherGapCount))
            otherGaps = grown
            otherGapsHead = 0
        }
        otherGaps[(otherGapsHead + otherGapCount) % otherGaps.count] = gap <= Int64(UInt8.max) ? UInt8(gap) : 0
        otherGapCount += 1
        if gap > Int64(UInt8.max) { longGaps.append(gap) }
    }

    /// The gap of the point in `slot`, which has just become the oldest: its gap leaves the queue.
    private mutating func takeGap(of slot: Int) -> Int64 {
        if gapIsOneSecond(slot) { return 1 }
        let gap = otherGaps[otherGapsHead]
        otherGapsHead = otherGapsHead + 1 == otherGaps.count ? 0 : otherGapsHead + 1
        otherGapCount -= 1
        return gap != 0 ? Int64(gap) : longGaps.removeFirst()
    }

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
        private var otherGapIndex: Int
        private var longGapIndex = 0

        init(_ history: PriceHistory) {
            self.history = history
            second = history.oldestSecond
            otherGapIndex = history.otherGapsHead
        }

        mutating func next() -> Point? {
            guard index < history.count else { return nil }
            let slot = history.slot(of: index)
            if index > 0 {
                if history.gapIsOneSecond(slot) {
                    second += 1
                } else {
                    let gap = history.otherGaps[otherGapIndex]
                    otherGapIndex = otherGapIndex + 1 == history.otherGaps.count ? 0 : otherGapIndex + 1
                    if gap != 0 {
                        second += Int64(gap)
                    } else {
                        second += history.longGaps[longGapIndex]
                        longGapIndex += 1
                    }
                }
            }
            index += 1
            return Point(second: second, units: history.units(at: slot))
        }
    }

    /// The slot of the point `index` places after the oldest.
    private func slot(of index: Int) -> Int {
        let slot = oldestSlot + index
        return slot < count ? slot : slot - count
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
    /// is more than `narrowSpan` ticks. Keeps the slots where they are. A narrow row that stays narrow is
    /// rewritten in place, with no array made: many rows re-encoding at once (prices that all jumped)
    /// made 2,000 new arrays while the old ones were alive, and the heap kept the 6 MB of holes.
    private mutating func reencode(setting units: Int64, at slot: Int) {
        var low = units, high = units
        for index in 0..<count where index != slot {
            let price = self.units(at: index)
            low = Swift.min(low, price)
            high = Swift.max(high, price)
        }
        let (spread, overflow) = high.subtractingReportingOverflow(low)
        if !overflow {
            var tick = Self.coarsestTick
            for index in 0..<count {
                // Every price is at least `low`, and the spread did not overflow, so neither does this.
                let difference = (index == slot ? units : self.units(at: index)) - low
                while difference % tick != 0 { tick /= 10 }
            }
            let steps = spread / tick
            if steps <= Self.narrowSpan {
                let base = low + steps / 2 * tick
                if wideUnits.isEmpty {
                    // Each slot's old price is read before its new offset is written (the old base and
                    // tick stay until every slot is done).
                    for index in 0..<count {
                        let price = index == slot ? units : self.units(at: index)
                        offsets[index] = Int16((price - base) / tick)
                    }
                } else {
                    var narrow: [Int16] = []
                    narrow.reserveCapacity(Swift.max(wideUnits.capacity, count))
                    for index in 0..<count { narrow.append(Int16(((index == slot ? units : wideUnits[index]) - base) / tick)) }
                    offsets = narrow
                    wideUnits = []
                }
                self.tick = tick
                priceBase = base
                return
            }
        }
        var wide: [Int64] = []
        wide.reserveCapacity(Swift.max(offsets.capacity, wideUnits.capacity, count))
        for index in 0..<count { wide.append(index == slot ? units : self.units(at: index)) }
        wideUnits = wide
        offsets = []
        pricesSinceWidened = 0
    }

    /// Before an append to a full array: doubles its room (from `from`, 16) up to `limit` (`capacity`),
    /// where the default growth would round 1,800 up to 2,048 or more.
    private static func growIfFull<Element>(_ array: inout [Element], limit: Int = capacity, from: Int = 16) {
        guard array.count == array.capacity else { return }
        array.reserveCapacity(Swift.min(limit, Swift.max(from, array.capacity * 2)))
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
