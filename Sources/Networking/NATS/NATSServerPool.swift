/// The servers a connection may use and which to try next, as a value.
///
/// The configured servers (the seeds) stay for the life of the connection. Servers learned from INFO's
/// `connect_urls` (a cluster tells every client where its other nodes are, and tells again when one
/// joins or leaves) are added, and dropped again when the cluster stops listing them, so a dead node is
/// not dialled forever. Learned servers inherit TLS from the server that named them. Turns go round
/// the pool in order, starting after the server last connected to, so a lost server is the last one
/// tried again.
struct NATSServerPool: Sendable, Hashable {
    private(set) var servers: [NATSServerAddress]
    private var learned: Set<NATSServerAddress> = []
    private var cursor = 0

    /// `seeds` without duplicates, in their order; must not be empty.
    init(seeds: [NATSServerAddress]) {
        var seen = Set<NATSServerAddress>()
        servers = seeds.filter { seen.insert($0).inserted }
    }

    var count: Int { servers.count }

    /// The server whose turn it is; the turn moves on.
    mutating func next() -> NATSServerAddress {
        let server = servers[cursor % servers.count]
        cursor = (cursor + 1) % servers.count
        return server
    }

    /// The next turn starts after `server`.
    mutating func connected(to server: NATSServerAddress) {
        if let index = servers.firstIndex(of: server) { cursor = (index + 1) % servers.count }
    }

    /// Takes a fresh `connect_urls` list: adds the servers not yet known and drops learned ones no
    /// longer listed (never a seed, never `current`). Returns the servers added. Entries that are not
    /// `host:port` are skipped.
    mutating func update(connectURLs: [String], requiresTLS: Bool, current: NATSServerAddress?) -> [NATSServerAddress] {
        var listed: [NATSServerAddress] = []
        for url in connectURLs {
            guard let (address, _) = NATSServerAddress.parse(url) else { continue }
            listed.append(NATSServerAddress(host: address.host, port: address.port, requiresTLS: requiresTLS || address.requiresTLS))
        }
        let listedKeys = Set(listed.map(\.hostAndPort))
        let currentKey = current?.hostAndPort
        let next = servers[cursor % servers.count]
        servers.removeAll { server in
            learned.contains(server) && !listedKeys.contains(server.hostAndPort) && server.hostAndPort != currentKey
        }
        learned = learned.filter { servers.contains($0) }
        let knownKeys = Set(servers.map(\.hostAndPort))
        var added: [NATSServerAddress] = []
        for address in listed where !knownKeys.contains(address.hostAndPort) && !added.contains(address) {
            added.append(address)
        }
        servers += added
        learned.formUnion(added)
        // The turn stays with the server that had it, or the one that took its place.
        cursor = servers.firstIndex(of: next) ?? min(cursor, servers.count - 1)
        return added
    }
}
