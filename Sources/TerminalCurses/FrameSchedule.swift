/// When the UI loop draws: as soon as a redraw is asked for but no more often than the frame cap, and
/// at the idle interval regardless, because ages and highlights change with time alone.
struct FrameSchedule: Sendable {
    typealias Instant = ContinuousClock.Instant

    let minimumInterval: Duration
    /// Nil: no idle redraws, the loop sleeps until something happens.
    let idleInterval: Duration?
    private(set) var lastFrame: Instant?
    private(set) var needsDisplay = true

    init(maxFramesPerSecond: Int, idleInterval: Duration) {
        minimumInterval = .seconds(1) / max(1, maxFramesPerSecond)
        self.idleInterval = idleInterval > .zero ? idleInterval : nil
    }

    mutating func setNeedsDisplay() {
        needsDisplay = true
    }

    /// When the next frame is due; nil when only an event can make one due.
    var nextFrame: Instant? {
        guard let lastFrame else { return nil }
        if needsDisplay { return lastFrame + minimumInterval }
        return idleInterval.map { lastFrame + $0 }
    }

    func isDue(at now: Instant) -> Bool {
        guard lastFrame != nil else { return true }
        return nextFrame.map { $0 <= now } ?? false
    }

    mutating func didDraw(at now: Instant) {
        lastFrame = now
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
