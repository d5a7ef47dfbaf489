/// When a flaky demo broker's feed is down, as a pure function of the seed and the tick the broker
/// started on: up for a seeded number of ticks, down for a seeded number, up again, and so on. While it
/// is down its stream drops and cannot be reopened, so the hub shows `reconnecting` and the rows go
/// stale; the outages are long enough for both to be seen, and the first comes within a minute.
public struct DemoOutageSchedule: Sendable, Hashable {
    /// How long a flaky feed stays up and then down, in market ticks, each drawn from its range.
    public struct Plan: Sendable, Hashable {
        public var upTicks: ClosedRange<Int>
        public var downTicks: ClosedRange<Int>

        public init(upTicks: ClosedRange<Int>, downTicks: ClosedRange<Int>) {
            self.upTicks = max(1, upTicks.lowerBound)...max(1, upTicks.upperBound)
            self.downTicks = max(1, downTicks.lowerBound)...max(1, downTicks.upperBound)
        }
    }

    public let plan: Plan
    /// The tick the broker started on: the first up time counts from here.
    public let originTick: Int
    private let key: UInt64

    public init(plan: Plan, brokerID: String, originTick: Int, seed: UInt64) {
        self.plan = plan
        self.originTick = originTick
        key = DemoHash.mix(DemoHash.mix(DemoHash.splitMix(seed), DemoHash.fnv1a(brokerID)), "outage")
    }

    /// The ticks of outage `index` (0 is the first).
    public func outage(_ index: Int) -> Range<Int> {
        var start = originTick
        for earlier in 0...index {
            start += draw(plan.upTicks, earlier, "up")
            if earlier < index { start += draw(plan.downTicks, earlier, "down") }
        }
        return start..<(start + draw(plan.downTicks, index, "down"))
    }

    /// The outage under way at `tick`, or else the next one.
    public func outage(endingAfter tick: Int) -> Range<Int> {
        // Walked from the origin: a demo runs for hours at most, a few hundred outages.
        var index = 0
        var start = originTick + draw(plan.upTicks, 0, "up")
        var end = start + draw(plan.downTicks, 0, "down")
        while end <= tick {
            index += 1
            start = end + draw(plan.upTicks, index, "up")
            end = start + draw(plan.downTicks, index, "down")
        }
        return start..<end
    }

    public func isDown(at tick: Int) -> Bool {
        outage(endingAfter: tick).contains(tick)
    }

    private func draw(_ range: ClosedRange<Int>, _ index: Int, _ label: String) -> Int {
        range.lowerBound + Int(DemoHash.mix(DemoHash.mix(key, label), index) % UInt64(range.count))
    }
}
