import Foundation

/// How long to wait before each attempt to reconnect, as a value. The first attempt after a loss is
/// immediate (another node of the cluster is usually up); each later one waits twice as long as the one
/// before, from `initial` up to `maximum`, less a random part of up to `jitter` of it, so clients that
/// lost the same server do not all come back at the same instant. The random draw is passed in (a
/// seeded generator in tests), so a delay sequence is reproducible.
public struct NATSReconnectBackoff: Sendable, Hashable {
    public var initial: Duration
    public var maximum: Duration
    /// 0 … 1: the share of each delay that may be taken off at random.
    public var jitter: Double

    public init(initial: Duration = .milliseconds(100), maximum: Duration = .seconds(5), jitter: Double = 0.5) {
        self.initial = initial
        self.maximum = max(initial, maximum)
        self.jitter = min(1, max(0, jitter))
    }

    /// The wait before attempt number `attempt` (1 for the first after the loss). `unit` is a random
    /// draw in 0 ..< 1.
    public func delay(beforeAttempt attempt: Int, unit: Double) -> Duration {
        guard attempt > 1 else { return .zero }
        let doublings = min(attempt - 2, 40)
        var full = initial
        for _ in 0..<doublings {
            full = full * 2
            if full >= maximum { break }
        }
        full = min(full, maximum)
        return full * (1 - jitter * min(max(unit, 0), 1))
    }
}
