import Domain
import Networking
import TextSafety

/// A stream's certificate rejection in the broker domain: permanent (retrying cannot fix it, it only
/// hammers the broker) and worded as what to change, since the footer shows it as `failed: …`.
enum StreamCertificateFailure {
    /// The config key that adds a CA to trust (`AppConfig+TLS`).
    static let caFileSetting = "tls.caFile"

    /// The broker error for `error` when it is a certificate rejection, nil otherwise.
    static func brokerError(for error: WebSocketError) -> BrokerError? {
        guard case .certificateRejected(let rejection) = error else { return nil }
        switch rejection {
        case .untrustedIssuer:
            return .certificateRejected("certificate not trusted (set \(caFileSetting))")
        case .hostMismatch(let host):
            return .certificateRejected("certificate does not match host \(VisibleText.escaped(host))")
        case .invalid(let host, let reason):
            return .certificateRejected("certificate of \(VisibleText.escaped(host)) rejected: \(VisibleText.escaped(reason))")
        }
    }
}
