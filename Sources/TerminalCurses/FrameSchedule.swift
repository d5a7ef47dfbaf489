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

    init(maxFramesPerSecond: Int, idleInterval: Duration) {
        self.init(minimumInterval: .seconds(1) / max(1, maxFramesPerSecond), idleInterval: idleInterval)
    }

    init(minimumInterval: Duration, idleInterval: Duration) {
        self.minimumInterval = minimumInterval
        self.idleInterval = idleInterval > .zero ? idleInterval : nil
    }

    mutating func setNeedsDisplay() {
        needsDisplay = true
    }

    /// When the next frame is due; nil when only an event can make one due.
    var nextFrame: Instant? {
        guard let lastComposed else { return nil }
        if needsDisplay { return lastFrame.map { $0 + minimumInterval } ?? lastComposed }
        return idleInterval.map { lastComposed + $0 }
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
    }

    /// The poll(2) timeout in milliseconds, rounded up so the loop never wakes just before the frame
    /// is due and spins; -1 waits for events only.
    func pollTimeout(at now: Instant) -> Int32 {
        if isDue(at: now) { return 0 }
        guard let next = nextFrame else { return -1 }
        let remaining = now.duration(to: next)
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }
}
