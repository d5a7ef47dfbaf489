/// The connections kept open between requests, per origin, as a value: which one a request takes, which
/// ones to close. No I/O and no clock (`now` comes in), so the rules are tested with plain values; the
/// servicer keeps one behind a lock and closes what the methods hand back.
///
/// Rules: at most `maxPerOrigin` idle connections per origin (the oldest goes first); none kept longer than
/// `idleTimeout` (servers drop idle connections after some seconds, and a request on a connection the
/// server is just closing fails); the most recently used is taken first, as the one least likely to have
/// been closed. Expired connections of every origin are handed back whenever the pool is used.
struct HTTPIdleConnections<Connection> {
    private struct Idle {
        var connection: Connection
        var since: ContinuousClock.Instant
    }

    let maxPerOrigin: Int
    let idleTimeout: Duration
    private var idle: [HTTPOrigin: [Idle]] = [:]

    init(maxPerOrigin: Int = 4, idleTimeout: Duration = .seconds(30)) {
        self.maxPerOrigin = maxPerOrigin
        self.idleTimeout = idleTimeout
    }

    func count(for origin: HTTPOrigin) -> Int { idle[origin]?.count ?? 0 }

    var totalCount: Int { idle.values.reduce(0) { $0 + $1.count } }

    /// The most recently returned connection to `origin` that has not expired, if any, and every expired
    /// connection (of any origin), to close.
    mutating func take(for origin: HTTPOrigin, now: ContinuousClock.Instant) -> (connection: Connection?, expired: [Connection]) {
        let expired = removeExpired(now: now)
        guard var waiting = idle[origin], let last = waiting.popLast() else { return (nil, expired) }
        idle[origin] = waiting.isEmpty ? nil : waiting
        return (last.connection, expired)
    }

    /// Keeps `connection` for the next request to `origin`. Returns the connections to close: the expired
    /// ones and, when `origin` already has `maxPerOrigin` waiting, its oldest.
    mutating func put(_ connection: Connection, for origin: HTTPOrigin, now: ContinuousClock.Instant) -> [Connection] {
        var closing = removeExpired(now: now)
        guard maxPerOrigin > 0 else { return closing + [connection] }
        var waiting = idle[origin] ?? []
        waiting.append(Idle(connection: connection, since: now))
        if waiting.count > maxPerOrigin {
            closing += waiting.prefix(waiting.count - maxPerOrigin).map(\.connection)
            waiting.removeFirst(waiting.count - maxPerOrigin)
        }
        idle[origin] = waiting
        return closing
    }

    /// Every idle connection, to close (the servicer going away).
    mutating func removeAll() -> [Connection] {
        defer { idle = [:] }
        return idle.values.flatMap { $0.map(\.connection) }
    }

    private mutating func removeExpired(now: ContinuousClock.Instant) -> [Connection] {
        var expired: [Connection] = []
        for (origin, waiting) in idle {
            let (old, fresh) = (waiting.filter { now - $0.since >= idleTimeout }, waiting.filter { now - $0.since < idleTimeout })
            guard !old.isEmpty else { continue }
            expired += old.map(\.connection)
            idle[origin] = fresh.isEmpty ? nil : fresh
        }
        return expired
    }
}
