import Locking

/// How far ahead of each frame the paced reads should start (`FrameClock.lead`), learnt from how long
/// their prices took to reach the UI thread on recent frames.
///
/// A price read at the slot waits on screen for the frame after it, so the lead is added to every
/// price's latency: 5 ms fixed made the median 22 ms at 1,000 events/s where 17 was possible. Too short a
/// lead, and a price that lands after its frame waits a whole frame more. So the lead follows the
/// 90th percentile of the recent frames' last arrival after their slot, plus a margin, within bounds.
/// An arrival is measured from the latest read slot at or before it, of the last frame's grid
/// (`lastFrame + k · frameInterval − lead`): at 4 × 200 symbols only every other slot carried a row on
/// screen, frames came two intervals apart, and measured from the next frame's slot alone those frames'
/// arrivals were all discarded; a second then held five or six samples, one 5.5 ms outlier was the
/// percentile, and the lead stayed at 7 ms for a second, adding 5 ms to every price (p99 over 40 ms).
/// An arrival before the next slot is measured from the slot before: a price that missed its frame
/// says how much lead it lacked. An arrival counts only within `maximum` of its slot and within
/// `reach` slots of the last frame: else it came from something else (a key, a quiet stream read at
/// once) and says nothing about the reads. The arrivals are when each change was
/// handed to the UI thread, and the frame starts when the thread wakes for it, a little after it is due:
/// the margin of 1.5 ms covers that wake-up and the tail past the 90th percentile (with 0.75 ms, enough
/// prices at 1,000 events/s waited a frame more to lift p99 to 51–56 ms; 1.5 ms gave 38–42 ms).
/// Only the frames within `horizon` of the newest measured one count: when frames come in bursts (only
/// rows on screen draw one), 30 frames reach back many seconds, and a slow start-up kept the lead at
/// 5–6 ms where the reads took 1 ms, which made every price that just missed a slot 3 ms later.
public struct ReadLeadEstimator: Sendable {
    public typealias Instant = ContinuousClock.Instant

    public let minimum: Duration
    public let maximum: Duration
    public let margin: Duration
    /// How far back from the newest measured frame the frames count.
    public let horizon: Duration
    /// The lead before any frame was measured.
    public let initial: Duration
    /// The frame cap's interval: the read slots' grid (`FrameClock.frameInterval`).
    public let frameInterval: Duration
    private let window: Int
    /// Per measured frame, when it was drawn and the last arrival after its slot, in nanoseconds; a ring
    /// of `window`.
    private var samples: [(drawn: Instant, lateness: Int64)] = []
    /// The newest sample's frame.
    private var newest: Instant?
    private var next = 0
    /// The latest arrival after the current frame's slot, if any so far.
    private var latest: Int64?

    public init(
        initial: Duration = .milliseconds(5), minimum: Duration = .milliseconds(1), maximum: Duration = .milliseconds(10),
        margin: Duration = .microseconds(1_500), window: Int = 30, horizon: Duration = .seconds(1),
        frameInterval: Duration = .seconds(1) / 30
    ) {
        self.initial = initial
        self.frameInterval = frameInterval
        self.minimum = minimum
        self.maximum = maximum
        self.margin = margin
        self.horizon = max(.zero, horizon)
        self.window = max(1, window)
    }

    /// The UI heard of a change at `arrival`; the reads for the frame after the last one start at `slot`,
    /// and every `frameInterval` before and after it (the frame grid).
    public mutating func heard(at arrival: Instant, slot: Instant) {
        var lateness = slot.duration(to: arrival).wholeNanoseconds
        if frameInterval > .zero {
            let step = frameInterval.wholeNanoseconds
            // Euclidean: an arrival before `slot` belongs to the slot one interval earlier.
            let index = lateness >= 0 ? lateness / step : -((-lateness + step - 1) / step)
            guard index >= -1, index < Int64(Self.reach) else { return }
            lateness -= index * step
        }
        guard lateness >= 0, lateness <= maximum.wholeNanoseconds else { return }
        latest = max(latest ?? 0, lateness)
    }

    /// How many slots past the last frame's an arrival may be measured from: frames skipped because no
    /// row on screen changed are few; past that the stream was quiet and was read at once.
    public static let reach = 3

    /// A frame was drawn at `instant`: what was heard since its slot becomes one sample.
    public mutating func frameDrawn(at instant: Instant) {
        guard let latest else { return }
        let sample = (drawn: instant, lateness: latest)
        if samples.count < window {
            samples.append(sample)
        } else {
            samples[next] = sample
        }
        next = (next + 1) % window
        newest = instant
        self.latest = nil
    }

    /// The lead for the next frames.
    public var lead: Duration {
        guard let newest else { return initial }
        let sorted = samples.lazy.filter { $0.drawn.duration(to: newest) <= horizon }.map(\.lateness).sorted()
        guard !sorted.isEmpty else { return initial }
        // The latest tenth is looked past, and one at least from four frames on: with few frames in the
        // horizon a nearest-rank 90th percentile is the slowest, and one outlier set the lead.
        let skipped = sorted.count >= 4 ? max(1, sorted.count / 10) : 0
        let percentile = sorted[sorted.count - 1 - skipped]
        let lead = Duration.nanoseconds(percentile) + margin
        return min(maximum, max(minimum, lead))
    }
}
