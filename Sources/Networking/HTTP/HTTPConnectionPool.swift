import Locking

/// The idle connections of one servicer behind a lock (`HTTPIdleConnections` decides, this class closes).
/// A connection is in the pool or in one exchange's hands, never both.
final class HTTPConnectionPool: Sendable {
    private let idle: Locked<HTTPIdleConnections<HTTPConnection>>

    init(maxPerOrigin: Int, idleTimeout: Duration) {
        idle = Locked(HTTPIdleConnections(maxPerOrigin: maxPerOrigin, idleTimeout: idleTimeout))
    }

    deinit {
        for connection in idle.withLock({ $0.removeAll() }) { connection.close() }
    }

    /// An idle connection to `origin` the server has not closed meanwhile, if there is one. Closes the
    /// expired ones and those found closed on the way.
    func take(for origin: HTTPOrigin) -> HTTPConnection? {
        while true {
            let (connection, expired) = idle.withLock { $0.take(for: origin, now: .now) }
            for old in expired { old.close() }
            guard let connection else { return nil }
            if connection.isReusable() { return connection }
            connection.close()
        }
    }

    func put(_ connection: HTTPConnection) {
        let closing = idle.withLock { $0.put(connection, for: connection.origin, now: .now) }
        for old in closing { old.close() }
    }

    /// How many connections to `origin` wait for a request (for tests).
    func idleCount(for origin: HTTPOrigin) -> Int {
        idle.withLock { $0.count(for: origin) }
    }
}
