/// Whether a process may hold a broker's upstream connection for the bus (config `bus.role`).
public enum BusRole: String, Sendable, Hashable, CaseIterable {
    /// Leads a broker when nobody does and it has the broker's credentials; follows otherwise.
    case auto
    /// Always contends, and takes the lease from an `auto` holder at once: a relay that holds the keys.
    case leader
    /// Never connects to a broker itself; shows what the bus carries.
    case follower
}
