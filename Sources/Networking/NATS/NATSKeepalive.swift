/// PING / PONG keepalive as a value (https://docs.nats.io/using-nats/developer/connecting/pingpong): every
/// `interval` the client pings; a PONG clears the count of pings outstanding; when a ping is due with
/// `maxOutstanding` already unanswered, the connection is stale (a half-open TCP connection, a server
/// that stopped reading) and is dropped to reconnect. The same rule as nats.go's `PingInterval` and
/// `MaxPingsOutstanding`. Time is "elapsed since the connection opened", passed in, so this is tested
/// without a clock and the I/O thread only needs the next deadline for its poll timeout.
struct NATSKeepalive: Sendable, Hashable {
    enum Action: Sendable, Hashable {
        case none
        case sendPing
        case stale
    }

    /// nil: never ping, never go stale.
    let interval: Duration?
    let maxOutstanding: Int
    private(set) var outstanding = 0
    private var nextPing: Duration

    init(interval: Duration?, maxOutstanding: Int, now: Duration) {
        self.interval = interval
        self.maxOutstanding = max(1, maxOutstanding)
        nextPing = now + (interval ?? .zero)
    }

    var nextDeadline: Duration? {
        interval == nil ? nil : nextPing
    }

    mutating func pongReceived() {
        outstanding = 0
    }

    /// What to do at `now`; `.sendPing` is counted as sent.
    mutating func action(at now: Duration) -> Action {
        guard let interval, now >= nextPing else { return .none }
        if outstanding >= maxOutstanding { return .stale }
        outstanding += 1
        nextPing = now + interval
        return .sendPing
    }
}
