import Foundation

/// One server to dial: `nats://host:port` (plain TCP, upgraded to TLS when the server requires it) or
/// `tls://host:port` (TLS required). The port defaults to 4222. Credentials in a URL
/// (`nats://user:password@host`, `nats://token@host`) are taken out at parsing and never kept here, so
/// an address can be shown anywhere.
public struct NATSServerAddress: Sendable, Hashable, CustomStringConvertible {
    public static let defaultPort = 4222

    /// Without IPv6 brackets.
    public var host: String
    public var port: Int
    public var requiresTLS: Bool

    public init(host: String, port: Int = NATSServerAddress.defaultPort, requiresTLS: Bool = false) {
        self.host = host
        self.port = port
        self.requiresTLS = requiresTLS
    }

    /// `nats://…`, `tls://…`, or a bare `host[:port]` (what INFO's `connect_urls` holds). Returns the
    /// address and any credentials the URL carried; nil for anything else.
    public static func parse(_ text: String) -> (address: NATSServerAddress, credentials: NATSCredentials)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let withScheme = trimmed.contains("://") ? trimmed : "nats://" + trimmed
        guard let components = URLComponents(string: withScheme),
              let scheme = components.scheme?.lowercased(), scheme == "nats" || scheme == "tls",
              var host = components.host, !host.isEmpty,
              (components.path.isEmpty || components.path == "/"), components.query == nil, components.fragment == nil
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = components.port ?? defaultPort
        guard (1...65535).contains(port) else { return nil }
        var credentials = NATSCredentials.none
        if let user = components.user, !user.isEmpty {
            if let password = components.password {
                credentials = .userPassword(user: user, password: password)
            } else {
                credentials = .token(user)
            }
        }
        return (NATSServerAddress(host: host, port: port, requiresTLS: scheme == "tls"), credentials)
    }

    public var description: String {
        (requiresTLS ? "tls://" : "nats://") + hostAndPort
    }

    /// `host:port`, IPv6 in brackets: how servers list each other in `connect_urls`.
    public var hostAndPort: String {
        (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }
}
