/// How one broker's upstream is doing, as the footer shows it.
public enum BrokerConnectionState: Sendable, Hashable {
    case connecting
    case live
    /// Lost; the `attempt`-th reconnect is scheduled or under way. `reason` is why it dropped.
    case reconnecting(attempt: Int, reason: String)
    /// Given up, e.g. credentials rejected; no retries until the user acts.
    case failed(reason: String)
    /// Request/response brokers that are polled instead of streamed.
    case polling
}
