/// How long a lease lives and how often its holder renews it.
///
/// A lease has no expiry on the server (nats-server 2.9 has no per-key TTL): a contender judges it
/// expired when its revision has not changed for `timeToLive` on the contender's own clock. So clocks
/// of different hosts never need to agree, and a holder that renews every `renewEvery` keeps it
/// through `timeToLive / renewEvery - 1` lost renewals.
public struct LeasePolicy: Sendable, Hashable {
    public var timeToLive: Duration
    public var renewEvery: Duration
    /// After failing to open the upstream connection, a process does not contend again for this long,
    /// so one with bad credentials does not keep taking the lease from one that could connect.
    public var standDownAfterFailure: Duration
    /// After the bus comes back, how much longer than `timeToLive` a follower waits for the leader to
    /// renew: the leader's client may reconnect this much later (the NATS client's longest reconnect
    /// backoff, 5 s), and taking its lease meanwhile would open a second broker connection.
    public var reconnectGrace: Duration

    public init(
        timeToLive: Duration = .seconds(6), renewEvery: Duration = .seconds(2), standDownAfterFailure: Duration = .seconds(12),
        reconnectGrace: Duration = .seconds(5)
    ) {
        self.timeToLive = timeToLive
        self.renewEvery = renewEvery
        self.standDownAfterFailure = standDownAfterFailure
        self.reconnectGrace = reconnectGrace
    }
}
