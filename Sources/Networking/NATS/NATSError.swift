import TextSafety

/// Why a NATS call or connection failed. Descriptions are short enough for the footer and never hold a
/// password or token: server text is reduced to printable ASCII and redacted before it gets here.
public enum NATSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Options that cannot work: a URL that is not `nats://` or `tls://`, no server at all. Permanent.
    case invalidConfiguration(String)
    case invalidSubject(String, reason: String)
    case invalidHeaders(String)
    /// Headers and payload together over the server's `max_payload`.
    case payloadTooLarge(size: Int, limit: Int)
    /// More than `Options.pendingBytesLimit` is waiting to be written (the server is slow or away).
    case outboundBufferFull(limit: Int)
    /// TCP-level failure: refused, reset, DNS, the server closing the connection.
    case network(String)
    case tls(String)
    /// The server's certificate failed verification; permanent until the configuration changes.
    case certificateRejected(WebSocketCertificateRejection)
    case timedOut(String)
    /// The server broke the protocol (see `NATSProtocolError`).
    case protocolViolation(String)
    /// The server refused the credentials (`-ERR 'Authorization Violation'`). Permanent until they change.
    case authorizationViolation(server: String)
    /// Any other `-ERR` from the server.
    case serverError(String)
    /// Nobody subscribes to the subject of a request (the server's 503 status).
    case noResponders(subject: String)
    /// A JetStream API call that nobody answers: JetStream is off, or the stream does not exist.
    case jetStreamUnavailable(subject: String)
    /// JetStream refused the call (`{"error": {"code": …, "err_code": …, "description": …}}`).
    case jetStream(NATSJetStreamAPIError)
    /// A compare-and-set write to a KV key found another revision there (JetStream error 10071);
    /// `current` is the key's revision when the server said it, 0 when the key had none.
    case wrongLastRevision(key: String, current: UInt64?)
    /// An answer that is not what the call expects (bad JSON, a missing header).
    case unexpectedResponse(String)
    case cancelled
    /// The connection was closed (by `close()`, or after it gave up reconnecting).
    case connectionClosed

    public var description: String {
        switch self {
        case .invalidConfiguration(let detail): "NATS configuration: \(detail)"
        case .invalidSubject(let subject, let reason): "NATS subject \"\(VisibleText.escaped(subject))\" \(reason)"
        case .invalidHeaders(let detail): "NATS headers: \(detail)"
        case .payloadTooLarge(let size, let limit): "NATS message of \(size) bytes exceeds the server's \(limit)-byte max_payload"
        case .outboundBufferFull(let limit): "NATS: more than \(limit) bytes waiting to be sent; the server is not keeping up or not reachable"
        case .network(let detail): "NATS: \(detail)"
        case .tls(let detail): "NATS TLS: \(detail)"
        case .certificateRejected(let rejection): "NATS TLS: \(rejection)"
        case .timedOut(let detail): "NATS timed out: \(detail)"
        case .protocolViolation(let detail): "NATS protocol error: \(detail)"
        case .authorizationViolation(let server): "NATS server \(server) refused the credentials (authorization violation); check the user and password or token"
        case .serverError(let text): "NATS server error: \(text)"
        case .noResponders(let subject): "NATS: no responders on \(VisibleText.escaped(subject))"
        case .jetStreamUnavailable(let subject): "NATS JetStream did not answer on \(subject): is the server started with JetStream (-js), and does the stream exist?"
        case .jetStream(let error): "NATS JetStream: \(error)"
        case .wrongLastRevision(let key, let current):
            "NATS KV key \(key) is at revision \(current.map(String.init) ?? "unknown"), not the expected one"
        case .unexpectedResponse(let detail): "NATS: unexpected response: \(detail)"
        case .cancelled: "NATS: cancelled"
        case .connectionClosed: "NATS: connection closed"
        }
    }

    /// Retrying cannot help until the configuration (credentials, CA file, URL) changes.
    public var isPermanent: Bool {
        switch self {
        case .invalidConfiguration, .authorizationViolation, .certificateRejected: true
        default: false
        }
    }

    init(_ error: WebSocketError) {
        switch error {
        case .tls(let detail): self = .tls(detail)
        case .certificateRejected(let rejection): self = .certificateRejected(rejection)
        case .network(let detail): self = .network(detail)
        case .timedOut(let detail): self = .timedOut(detail)
        default: self = .network(error.description)
        }
    }
}
