/// When the UI loop draws: as soon as a redraw is asked for but no more often than the frame cap, and
/// at the idle interval regardless, because ages and highlights change with time alone.
struct FrameSchedule: Sendable {
    typealias Instant = ContinuousClock.Instant

    let minimumInterval: Duration
    /// Nil: no idle redraws, the loop sleeps until something happens.
    let idleInterval: Duration?
    /// The last frame the cap counts from: one that was asked for, or that changed the terminal.
    private(set) var lastFrame: Instant?
    /// The last frame composed, whatever it changed: the idle interval counts from it.
    private(set) var lastComposed: Instant?
    private(set) var needsDisplay = true
    /// Only time has passed (a message fading): drawn when a change would be, but the frame holds back
    /// the next one only if it changed the terminal. Otherwise the once-a-second tick, composing a frame
    /// that wrote nothing, held the next price back for most of a frame interval.
    private(set) var needsTimedRedraw = false
    /// With paced streams: a redraw for time alone is drawn on the frames' grid (`lastFrame` plus whole
    /// intervals), not at once. The streams read a lead before each grid point (`FrameClock`); the tick's
    /// frame drawn off the grid, while no row on screen changed, moved every next slot later by up to a
    /// frame, and the prices read for the grid point waited a frame more (p99 51 ms at 10,000 events/s).
    /// The clock's second then shows up to one frame later.
    let alignsTimedRedraws: Bool
    /// The grid point the booked redraw for time waits for (`alignsTimedRedraws`).
    private var timedRedrawDue: Instant?

    init(maxFramesPerSecond: Int, idleInterval: Duration) {
        self.init(minimumInterval: .seconds(1) / max(1, maxFramesPerSecond), idleInterval: idleInterval)
    }

    init(minimumInterval: Duration, idleInterval: Duration, alignsTimedRedraws: Bool = false) {
        self.minimumInterval = minimumInterval
        self.idleInterval = idleInterval > .zero ? idleInterval : nil
        self.alignsTimedRedraws = alignsTimedRedraws
    }

    mutating func setNeedsDisplay() {
        needsDisplay = true
    }

    /// `now`: when it was asked, for a redraw that waits for the grid (`alignsTimedRedraws`).
    mutating func setNeedsTimedRedraw(at now: Instant? = nil) {
        needsTimedRedraw = true
        guard alignsTimedRedraws, timedRedrawDue == nil, let now, let lastFrame, minimumInterval > .zero else { return }
        // The first grid point not before `now`; one a hair before counts (the loop wakes just after it).
        let intervals = max(1, Int((lastFrame.duration(to: now) / minimumInterval - 0.01).rounded(.up)))
        timedRedrawDue = lastFrame + minimumInterval * intervals
    }

    /// A frame is booked for a change or for time passing: whatever else is asked before it is drawn
    /// with it, so the UI thread need not be told of it (`mayIgnoreRequests`).
    var hasBookedRedraw: Bool { needsDisplay || needsTimedRedraw }

    /// True while a booked frame waits for the cap: what is asked meanwhile changes nothing until that
    /// frame, so the UI thread reads it then instead of waking for each request.
    /// A redraw for time that waits for the grid does not: a change asked meanwhile may be due sooner.
    func mayIgnoreRequests(at now: Instant) -> Bool {
        if !needsDisplay, timedRedrawDue != nil { return false }
        return hasBookedRedraw && lastComposed != nil && !isDue(at: now)
    }

    /// When the next frame is due; nil when only an event can make one due.
    var nextFrame: Instant? {
        guard let lastComposed else { return nil }
        if hasBookedRedraw {
            let capped = lastFrame.map { $0 + minimumInterval } ?? lastComposed
            if !needsDisplay, let timedRedrawDue { return max(capped, timedRedrawDue) }
            return capped
        }
        return idleInterval.map { lastComposed + $0 }
    }

    /// The instant a frame that starts at `start` counts from: the instant it was due, when the loop slept
    /// until then (`wokeForIt`: its wait timed out) and woke within a quarter of the cap's interval, else
    /// `start`. Counted from when each frame ended, the frames drifted later by the wake-up and the drawing,
    /// about a millisecond a frame, and every read slot the streams had foreseen from the frame before came
    /// too early (`FrameClock`). A frame that something else woke (a price after a quiet spell, a key)
    /// counts from `start`: counted from a due time before it, the next frame could come up to a quarter
    /// interval early, beating the cap.
    func frameTime(startingAt start: Instant, wokeForIt: Bool) -> Instant {
        guard wokeForIt, let due = nextFrame, due <= start, due.duration(to: start) <= minimumInterval / 4 else { return start }
        return due
    }

    func isDue(at now: Instant) -> Bool {
        guard lastComposed != nil else { return true }
        return nextFrame.map { $0 <= now } ?? false
    }

    /// `changedTerminal`: the frame wrote something. An idle redraw that found nothing to change does not
    /// hold back the next frame: a price that arrives just after it is drawn at once, not a frame
    /// interval later (the wire-to-screen bench's idle case: its p99 was that interval).
    mutating func didDraw(at now: Instant, changedTerminal: Bool = true) {
        if needsDisplay || changedTerminal || lastFrame == nil { lastFrame = now }
        lastComposed = now
        needsDisplay = false
        needsTimedRedraw = false
        timedRedrawDue = nil
    }

    /// The poll(2) timeout in whole milliseconds, rounded down; -1 waits for events only. Rounding up
    /// would draw up to a millisecond late on every frame (a 33.3 ms cap drew every 34 ms): the loop
    /// sleeps the last fraction instead (`finalFraction`).
    func pollTimeout(at now: Instant) -> Int32 {
        if isDue(at: now) { return 0 }
        guard let next = nextFrame else { return -1 }
        let (seconds, attoseconds) = now.duration(to: next).components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }

    /// What is left before the next frame when it is under a millisecond (poll(2) cannot wait for it),
    /// else nil.
    func finalFraction(at now: Instant) -> Duration? {
        guard !isDue(at: now), let next = nextFrame else { return nil }
        let left = now.duration(to: next)
        return left < .milliseconds(1) ? left : nil
    }
}
