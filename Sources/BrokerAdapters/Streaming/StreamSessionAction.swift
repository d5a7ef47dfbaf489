import Domain

/// What a broker's stream state machine asks its `StreamSocketSession` to do, in order.
enum StreamSessionAction: Sendable, Hashable {
    /// Send a text message to the broker.
    case send(String)
    /// Hand an event to the hub.
    case emit(QuoteEvent)
    /// End the session: the hub sees `events` throw this error. Permanent errors stop its retries.
    case fail(BrokerError)
}
