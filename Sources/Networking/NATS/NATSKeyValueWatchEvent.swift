/// What a KV watch reports.
public enum NATSKeyValueWatchEvent: Sendable, Hashable {
    /// A key's value (or its delete marker).
    case entry(NATSKeyValueEntry)
    /// Every matching key's latest value up to now has been delivered; what follows is live. Said once
    /// at the start, and again after each `.restarting`.
    case caughtUp
    /// The watch cannot create its consumer (the server is away or restarting, JetStream is off, the
    /// bucket does not exist yet) and keeps trying. Said once per run of failures; entries follow when
    /// it succeeds.
    case waiting(reason: String)
    /// The watcher lost entries (it fell behind its buffer) and starts over from the latest value of
    /// every key: entries for keys already seen come again, then `.caughtUp`.
    case restarting(reason: String)
}
