import Networking
import TerminalKit

/// The streams of an interactive run read just before the screen's next frame (see `FrameClock`): the
/// watchlist shows the same prices at the same frames, for a fraction of the wake-ups. Quotes then reach
/// the hub, and through it the paper broker, alerts and a bus the app leads, up to one frame later than
/// they landed; `print`, `relay` and `alerts check` have no screen and read every message at once.
struct ScreenPacedReads: WebSocketReadPacing {
    let clock: FrameClock

    func readSlot(lastRead: ContinuousClock.Instant?, lastSlot: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        clock.readSlot(lastRead: lastRead, lastSlot: lastSlot, now: now)
    }
}
