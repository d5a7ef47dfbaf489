/// The idle timeout as a value: after `pingAfter` without receiving anything, send a ping; if nothing
/// at all arrives within `pongTimeout` after that, the connection is dead (a half-open TCP connection
/// or a server that stopped reading). Time is "elapsed since the connection opened", passed in, so the
/// logic is tested without a clock and the I/O thread only needs the next deadline for its poll timeout.
public struct WebSocketHeartbeat: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        case none
        case sendPing
        case timedOut
    }

    /// nil: never ping, never time out.
    public let pingAfter: Duration?
    public let pongTimeout: Duration
    private var lastReceived: Duration
    private var pingSentAt: Duration?

    public init(pingAfter: Duration?, pongTimeout: Duration, now: Duration = .zero) {
        self.pingAfter = pingAfter
        self.pongTimeout = pongTimeout
        lastReceived = now
    }

    /// Any bytes count as a sign of life, not only pongs: a busy stream needs no pings.
    public mutating func received(at now: Duration) {
        lastReceived = now
        pingSentAt = nil
    }

    /// When `action(at:)` next has something to do; nil when never.
    public var nextDeadline: Duration? {
        guard let pingAfter else { return nil }
        if let pingSentAt { return pingSentAt + pongTimeout }
        return lastReceived + pingAfter
    }

    /// What to do at `now`. Returns `.sendPing` once per silence and records it as sent.
    public mutating func action(at now: Duration) -> Action {
        guard let deadline = nextDeadline, now >= deadline else { return .none }
        if pingSentAt != nil { return .timedOut }
        pingSentAt = now
        return .sendPing
    }
}
