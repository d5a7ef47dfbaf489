/// What happened to a connection, for a status line and for logic that must react (a KV watch starts
/// its consumer over after a reconnect). Server names are addresses without credentials; server text is
/// printable ASCII, redacted.
public enum NATSConnectionEvent: Sendable, Hashable {
    case connected(server: String)
    /// The connection was lost; reconnecting starts at once.
    case disconnected(reason: NATSError)
    /// Attempt `attempt` (1 for the first) is about to dial `server`.
    case reconnecting(server: String, attempt: Int)
    /// Connected again; live subscriptions have been sent again.
    case reconnected(server: String)
    /// The cluster named servers not known before (INFO's `connect_urls`).
    case discoveredServers([String])
    /// The server is shutting down gracefully; the connection moves on when it goes.
    case lameDuckMode(server: String)
    /// An `-ERR` from the server that did not end the connection (a permissions violation, say).
    case serverError(String)
    /// A subscriber does not keep up: its buffer is full and the oldest messages are being dropped.
    /// Said once per episode (again only after the buffer drained to half); `dropped` is the total so far.
    case slowConsumer(subject: String, dropped: Int)
    /// A message whose header block could not be read was dropped (see `NATSMalformedMessage`).
    case malformedMessageDropped(subject: String, reason: String)
    /// The connection is closed for good: `reason` is nil after `close()`.
    case closed(reason: NATSError?)
}
