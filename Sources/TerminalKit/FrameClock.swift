import Locking
import Synchronization

/// The screen's frame times, published by the UI thread for work that is only worth doing just before
/// the next frame. A frame shows only the newest price of each row, so a stream that reads its socket
/// once per frame, shortly before it, puts the same prices on the screen at the same frame as one that
/// reads every message the moment it lands, with a fraction of the wake-ups: at 1,000 events a second
/// the app spent over 4 thread switches per event, each about 28 µs on this kind of machine.
public final class FrameClock: Sendable {
    /// The frame cap's interval: the UI draws no more often than this.
    public let frameInterval: Duration
    private let lastFrameDrawn: AtomicInstant
    /// In whole nanoseconds, as `Duration` has no atomic form.
    private let leadNanoseconds: Atomic<Int64>
    private let resumed = Locked<[@Sendable () -> Void]>([])

    /// `lead` is where the lead starts; the UI thread then sets it from what it measures
    /// (`ReadLeadEstimator`).
    public init(framesPerSecond: Int = 30, lead: Duration = .milliseconds(5), origin: ContinuousClock.Instant = .now) {
        frameInterval = .seconds(1) / max(1, framesPerSecond)
        leadNanoseconds = Atomic(lead.wholeNanoseconds)
        lastFrameDrawn = AtomicInstant(origin: origin)
    }

    /// How long before a frame the work must be handed over to reach it: the hops from a socket through
    /// the hub and the update loop to the UI thread.
    public var lead: Duration { .nanoseconds(leadNanoseconds.load(ordering: .relaxed)) }

    /// Called by the UI thread with the lead it measured; kept under a frame interval.
    public func setLead(_ lead: Duration) {
        let clamped = min(max(.zero, lead), frameInterval / 2)
        leadNanoseconds.store(clamped.wholeNanoseconds, ordering: .relaxed)
    }

    /// Where the reads for the frame after the last one start: nil before the first frame.
    public var currentSlot: ContinuousClock.Instant? {
        lastFrame.map { $0 + frameInterval - lead }
    }

    /// Called by the UI thread with each frame the cap counts from.
    public func frameDrawn(at instant: ContinuousClock.Instant) {
        let previous = lastFrameDrawn.load()
        lastFrameDrawn.store(instant)
        if let previous, previous.duration(to: instant) > frameInterval * 3 / 2 {
            for body in resumed.withLock({ $0 }) { body() }
        }
    }

    /// `body` is called on the UI thread when a frame comes after a pause (more than one and a half
    /// intervals after the frame before): an idle frame, drawn as soon as something changed, sets where
    /// the frames after it fall, and a read booked for the slot of the frames before may now come after
    /// the slot of the next one, and miss it. `body` must only signal (the slot reader looks again).
    public func whenFramesResume(_ body: @escaping @Sendable () -> Void) {
        resumed.withLock { $0.append(body) }
    }

    public var lastFrame: ContinuousClock.Instant? { lastFrameDrawn.load() }

    /// When a reader that last read at `lastRead` (and last read bytes at the slot `lastSlot`) should
    /// read again; nil to read now.
    public func readSlot(lastRead: ContinuousClock.Instant?, lastSlot: ContinuousClock.Instant? = nil, now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        Self.readSlot(lastFrame: lastFrame, frameInterval: frameInterval, lead: lead, lastRead: lastRead, lastSlot: lastSlot, now: now)
    }

    /// The read slots are `lead` before each frame the cap allows after the last one: `lastFrame + k ·
    /// frameInterval − lead`, k ≥ 1. A reader reads at the first slot after its last read, so at most
    /// once per frame, and at once when that slot has passed: after a quiet spell the next frame draws as
    /// soon as something changes, and holding that change back would only delay it.
    ///
    /// A reader computes its next slot right after a read, before the frame that read was for has drawn.
    /// When the frame before that one drew later than the slot foresaw, the same frame's slot moves later
    /// by as much, past the read: without `lastSlot`, the reader read again for that frame, found the
    /// socket empty and then read the very next message at once, waking every thread behind it for one
    /// price (about ten times a second per stream at 1,000 events a second). So a slot within half a frame
    /// of the slot last read is the same frame's, and the reader waits for the one after.
    public static func readSlot(
        lastFrame: ContinuousClock.Instant?, frameInterval: Duration, lead: Duration,
        lastRead: ContinuousClock.Instant?, lastSlot: ContinuousClock.Instant? = nil, now: ContinuousClock.Instant
    ) -> ContinuousClock.Instant? {
        guard let lastFrame, let lastRead, frameInterval > .zero else { return nil }
        let interval = frameInterval.wholeNanoseconds
        var earliest = lastRead
        if let lastSlot { earliest = max(earliest, lastSlot + frameInterval / 2) }
        var slot = lastFrame + frameInterval - lead
        if slot <= earliest {
            let behind = slot.duration(to: earliest).wholeNanoseconds
            slot = slot + .nanoseconds((behind / interval + 1) * interval)
        }
        return slot > now ? slot : nil
    }
}
