/// Tells a connection's I/O thread when reading is worth it. A reader whose messages only matter at the
/// next screen frame (the watchlist's quotes) reads once shortly before that frame instead of on every
/// message, and so wakes the threads behind it (the decoder, the hub, the update loop) once a frame.
/// Bytes wait in the socket's kernel buffer meanwhile; writes, the heartbeat's deadlines and a hang-up are
/// served as before.
public protocol WebSocketReadPacing: Sendable {
    /// When a reader that last read at `lastRead` should read next; nil (or a past instant) reads now.
    /// `lastSlot` is the last slot it read bytes at (nil if none yet), so a slot that moved a little
    /// after that read (the frame before it drew later than foreseen) is not read a second time.
    func readSlot(lastRead: ContinuousClock.Instant?, lastSlot: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> ContinuousClock.Instant?
}
