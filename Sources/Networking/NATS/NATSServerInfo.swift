/// The server's INFO (https://docs.nats.io/reference/reference-protocols/nats-protocol#info): sent first
/// on every connection, and again at any time with protocol 1 (a cluster's `connect_urls` changing, lame
/// duck mode). Unknown fields are ignored; every field is optional, as servers of different versions
/// send different sets.
public struct NATSServerInfo: Sendable, Hashable, Codable {
    public var serverID: String?
    public var serverName: String?
    public var version: String?
    public var proto: Int?
    public var host: String?
    public var port: Int?
    public var headers: Bool?
    /// The largest message (headers and payload) the server accepts; 1 MiB by default.
    public var maxPayload: Int?
    public var authRequired: Bool?
    public var tlsRequired: Bool?
    public var tlsAvailable: Bool?
    public var jetStream: Bool?
    /// Other servers of the cluster clients may connect to, as `host:port` (IPv6 in brackets).
    public var connectURLs: [String]?
    /// The server is shutting down gracefully: clients should move to another server.
    public var lameDuckMode: Bool?
    public var clientID: UInt64?
    public var clientIP: String?
    public var nonce: String?
    public var cluster: String?
    public var domain: String?

    public init(
        serverID: String? = nil, serverName: String? = nil, version: String? = nil, proto: Int? = nil, host: String? = nil,
        port: Int? = nil, headers: Bool? = nil, maxPayload: Int? = nil, authRequired: Bool? = nil, tlsRequired: Bool? = nil,
        tlsAvailable: Bool? = nil, jetStream: Bool? = nil, connectURLs: [String]? = nil, lameDuckMode: Bool? = nil,
        clientID: UInt64? = nil, clientIP: String? = nil, nonce: String? = nil, cluster: String? = nil, domain: String? = nil
    ) {
        self.serverID = serverID
        self.serverName = serverName
        self.version = version
        self.proto = proto
        self.host = host
        self.port = port
        self.headers = headers
        self.maxPayload = maxPayload
        self.authRequired = authRequired
        self.tlsRequired = tlsRequired
        self.tlsAvailable = tlsAvailable
        self.jetStream = jetStream
        self.connectURLs = connectURLs
        self.lameDuckMode = lameDuckMode
        self.clientID = clientID
        self.clientIP = clientIP
        self.nonce = nonce
        self.cluster = cluster
        self.domain = domain
    }

    enum CodingKeys: String, CodingKey {
        case serverID = "server_id"
        case serverName = "server_name"
        case version
        case proto
        case host
        case port
        case headers
        case maxPayload = "max_payload"
        case authRequired = "auth_required"
        case tlsRequired = "tls_required"
        case tlsAvailable = "tls_available"
        case jetStream = "jetstream"
        case connectURLs = "connect_urls"
        case lameDuckMode = "ldm"
        case clientID = "client_id"
        case clientIP = "client_ip"
        case nonce
        case cluster
        case domain
    }
}
