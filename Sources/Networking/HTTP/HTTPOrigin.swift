import Foundation

/// Where a request goes, RFC 6454's (scheme, host, port): the key under which idle connections wait.
struct HTTPOrigin: Sendable, Hashable, CustomStringConvertible {
    var usesTLS: Bool
    /// Lower-cased, without the brackets of an IPv6 literal: what to resolve and verify the certificate against.
    var host: String
    var port: Int

    var defaultPort: Int { usesTLS ? 443 : 80 }

    /// RFC 9112 §3.2: the port only when it is not the scheme's default, IPv6 literals in brackets.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == defaultPort ? name : "\(name):\(port)"
    }

    /// The same host for the TLS transport, which was written for WebSocket endpoints (SNI, the expected
    /// certificate name and the IP-literal check are all it reads from one).
    var tlsEndpoint: WebSocketEndpoint {
        WebSocketEndpoint(host: host, port: port, usesTLS: true, requestTarget: "/")
    }

    var description: String { "\(usesTLS ? "https" : "http")://\(hostHeader)" }
}
