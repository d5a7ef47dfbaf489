import Foundation

/// Where a `ws://` or `wss://` URL points: what to connect to and what to put in the request line and
/// the Host header.
public struct WebSocketEndpoint: Sendable, Hashable {
    /// The host to resolve and to verify the certificate against, without IPv6 brackets.
    public var host: String
    public var port: Int
    public var usesTLS: Bool
    /// Path and query exactly as they were percent-encoded in the URL; "/" when the path is empty.
    public var requestTarget: String

    public init(host: String, port: Int, usesTLS: Bool, requestTarget: String) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
        self.requestTarget = requestTarget
    }

    /// nil for anything but an absolute ws/wss URL with a host (and a valid port, if any).
    public init?(url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
              var host = components.host, !host.isEmpty
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let usesTLS = scheme == "wss"
        let port = components.port ?? (usesTLS ? 443 : 80)
        guard (1...65535).contains(port) else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let query = components.percentEncodedQuery.map { "?" + $0 } ?? ""
        self.init(host: host, port: port, usesTLS: usesTLS, requestTarget: path + query)
    }

    public var defaultPort: Int { usesTLS ? 443 : 80 }

    /// RFC 6455 §4.1 and RFC 7230 §5.4: the port only when it is not the scheme's default, IPv6
    /// literals in brackets.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == defaultPort ? name : "\(name):\(port)"
    }

    /// Whether `host` is an IPv4 or IPv6 literal: such hosts get no SNI (RFC 6066 §3) and are checked
    /// against the certificate's IP addresses.
    public var hostIsIPAddress: Bool {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        return inet_pton(AF_INET, host, &ipv4) == 1 || inet_pton(AF_INET6, host, &ipv6) == 1
    }
}
