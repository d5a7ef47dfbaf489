/// Every process's demand for one broker, as the leader unions it: each entry lives while its process
/// keeps rewriting it, so a crashed process's symbols are dropped after `timeToLive`.
public struct DemandBook: Sendable {
    private struct Entry: Sendable {
        var symbols: Set<String>
        var seen: Duration
    }

    public let timeToLive: Duration
    private var entries: [String: Entry] = [:]

    public init(timeToLive: Duration) {
        self.timeToLive = timeToLive
    }

    /// `instance` said it shows `symbols` (a heartbeat says the same again).
    public mutating func set(_ symbols: Set<String>, for instance: String, at now: Duration) {
        entries[instance] = Entry(symbols: symbols, seen: now)
    }

    /// `instance` let go of its demand (its key was deleted).
    public mutating func remove(_ instance: String) {
        entries[instance] = nil
    }

    /// Drops entries not rewritten for `timeToLive`; returns the instances dropped.
    @discardableResult
    public mutating func expire(at now: Duration) -> [String] {
        let expired = entries.filter { now - $0.value.seen > timeToLive }.keys.sorted()
        for instance in expired { entries[instance] = nil }
        return expired
    }

    public var instances: [String] { entries.keys.sorted() }

    /// Every symbol some live process shows, with `own` (this process's, which it knows without the bus).
    public func union(with own: Set<String>) -> Set<String> {
        entries.values.reduce(into: own) { $0.formUnion($1.symbols) }
    }

    /// Connected to the bus again: heartbeats sent meanwhile could not arrive, so every entry's time
    /// starts over rather than expiring for the bus's outage.
    public mutating func busReturned(at now: Duration) {
        for instance in entries.keys { entries[instance]?.seen = now }
    }
}
