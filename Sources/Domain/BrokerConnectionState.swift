import Foundation

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
    /// A polled broker's last request failed for a reason that passes (a rate limit, a 5xx, the network,
    /// a body that could not be read): every request to it waits until `at`, the time the server named
    /// or a backoff. Rows keep their last quotes meanwhile.
    case retrying(at: Date, after: BrokerError)
}
