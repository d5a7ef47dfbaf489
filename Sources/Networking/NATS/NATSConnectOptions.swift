/// The client's CONNECT (https://docs.nats.io/reference/reference-protocols/nats-protocol#connect).
///
/// `protocol: 1` asks for asynchronous INFO updates (the cluster's `connect_urls`); `headers` and
/// `no_responders` together make a request to a subject nobody serves come back at once as a 503 status
/// instead of timing out. The password and token are never shown: `description` and the mirror `dump`
/// uses replace them.
public struct NATSConnectOptions: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    public var verbose: Bool
    public var pedantic: Bool
    public var tlsRequired: Bool
    public var user: String?
    public var password: String?
    public var authToken: String?
    public var name: String?
    public var lang: String
    public var version: String
    public var protocolVersion: Int
    public var echo: Bool
    public var headers: Bool
    public var noResponders: Bool

    public init(
        verbose: Bool = false, pedantic: Bool = false, tlsRequired: Bool = false, user: String? = nil, password: String? = nil,
        authToken: String? = nil, name: String? = nil, lang: String = "swift", version: String = "0.1.0", protocolVersion: Int = 1,
        echo: Bool = true, headers: Bool = true, noResponders: Bool = true
    ) {
        self.verbose = verbose
        self.pedantic = pedantic
        self.tlsRequired = tlsRequired
        self.user = user
        self.password = password
        self.authToken = authToken
        self.name = name
        self.lang = lang
        self.version = version
        self.protocolVersion = protocolVersion
        self.echo = echo
        self.headers = headers
        self.noResponders = noResponders
    }

    enum CodingKeys: String, CodingKey {
        case verbose
        case pedantic
        case tlsRequired = "tls_required"
        case user
        case password = "pass"
        case authToken = "auth_token"
        case name
        case lang
        case version
        case protocolVersion = "protocol"
        case echo
        case headers
        case noResponders = "no_responders"
    }

    /// Missing fields take the defaults above (a server reads CONNECT the same way).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = NATSConnectOptions()
        verbose = try container.decodeIfPresent(Bool.self, forKey: .verbose) ?? defaults.verbose
        pedantic = try container.decodeIfPresent(Bool.self, forKey: .pedantic) ?? defaults.pedantic
        tlsRequired = try container.decodeIfPresent(Bool.self, forKey: .tlsRequired) ?? defaults.tlsRequired
        user = try container.decodeIfPresent(String.self, forKey: .user)
        password = try container.decodeIfPresent(String.self, forKey: .password)
        authToken = try container.decodeIfPresent(String.self, forKey: .authToken)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        lang = try container.decodeIfPresent(String.self, forKey: .lang) ?? defaults.lang
        version = try container.decodeIfPresent(String.self, forKey: .version) ?? defaults.version
        protocolVersion = try container.decodeIfPresent(Int.self, forKey: .protocolVersion) ?? defaults.protocolVersion
        echo = try container.decodeIfPresent(Bool.self, forKey: .echo) ?? defaults.echo
        headers = try container.decodeIfPresent(Bool.self, forKey: .headers) ?? defaults.headers
        noResponders = try container.decodeIfPresent(Bool.self, forKey: .noResponders) ?? defaults.noResponders
    }

    public var description: String {
        let credentials = [
            user.map { "user: \($0)" },
            password.map { _ in "pass: \(Self.redacted)" },
            authToken.map { _ in "auth_token: \(Self.redacted)" },
        ].compactMap { $0 }
        return "CONNECT(" + (credentials + ["name: \(name ?? "-")", "protocol: \(protocolVersion)"]).joined(separator: ", ") + ")"
    }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "user": user as Any,
            "password": password.map { _ in Self.redacted } as Any,
            "authToken": authToken.map { _ in Self.redacted } as Any,
            "name": name as Any,
            "protocolVersion": protocolVersion,
            "headers": headers,
            "noResponders": noResponders,
        ])
    }

    /// `Redaction.placeholder`, spelled out: the fuzz harness builds this file without Redaction.swift.
    static let redacted = "<redacted>"
}
