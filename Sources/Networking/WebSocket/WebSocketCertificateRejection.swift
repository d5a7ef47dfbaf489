/// Why `wss://` refused the server's certificate, from OpenSSL's verify result. Each case is permanent
/// until the configuration changes (a CA file, the URL), so brokers stop retrying on it.
public enum WebSocketCertificateRejection: Sendable, Hashable, CustomStringConvertible {
    /// The chain does not lead to a CA we trust (the system store plus the configured CA file): a
    /// self-signed certificate, a private CA, a proxy that re-signs. `reason` is OpenSSL's wording.
    case untrustedIssuer(host: String, reason: String)
    /// A trusted certificate issued for other names than `host`, the name (or IP address) we dialled.
    case hostMismatch(host: String)
    /// Any other verification failure (expired, not yet valid, bad signature, …), in OpenSSL's words.
    case invalid(host: String, reason: String)

    public var description: String {
        switch self {
        case .untrustedIssuer(let host, let reason): "certificate of \(host) not trusted: \(reason)"
        case .hostMismatch(let host): "certificate does not match host \(host)"
        case .invalid(let host, let reason): "certificate of \(host) rejected: \(reason)"
        }
    }
}
