/// How this process gets one broker's quotes: over its own connection, or from the bus another process
/// feeds (`commonbroker` with a `bus` section). The footer says it beside the connection state.
public enum QuoteRoute: Sendable, Hashable {
    /// Its own connection, no bus: today's behaviour, and what the footer leaves unsaid.
    case direct
    /// Its own connection, shared with every terminal on the bus.
    case leader
    /// From the bus; `leader` is the process that holds the connection (`host:pid`), nil while none does.
    case follower(leader: String?)
    /// The bus could not be reached, so this process connects itself; `reason` says why.
    case directWithoutBus(reason: String)
    /// A follower that lost the bus: nothing it shows is live until the bus is back.
    case busLost(reason: String)
}
