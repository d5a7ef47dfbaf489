/// Why a request got no answer, in words for the footer: `words` plus where (`host:port`), never the path
/// or the query, which may hold a secret.
enum HTTPExchangeFailure: Error, Sendable, Hashable {
    case cancelled
    /// The request's one deadline passed, connect to last byte.
    case timedOut
    /// The resolver knows no such host (or could not ask).
    case hostNotFound
    case connectionRefused
    /// Unreachable, or another connect error: errno's words.
    case connectFailed(String)
    case certificateRejected(WebSocketCertificateRejection)
    /// The TLS handshake failed otherwise (an alert, a protocol error, the peer hanging up).
    case tlsHandshakeFailed
    /// TLS could not be set up here (the CA file cannot be read): the transport's words, which name the file.
    case tlsSetupFailed(String)
    /// Reset or closed under us. `responseStarted`: whether any byte of the answer had arrived.
    case connectionLost(responseStarted: Bool)
    /// The answer is not HTTP we can read, or crosses a limit, or stopped short.
    case unreadableResponse(HTTPResponseParseError)
    /// No wake-up pipe (out of descriptors).
    case resourcesExhausted(String)

    /// A kept-alive connection that failed this way never got to the server's application, which had
    /// closed it, so the request may go again on a new connection (if it is idempotent).
    var isStaleConnection: Bool {
        switch self {
        case .connectionLost(responseStarted: false), .unreadableResponse(.closedBeforeResponse): true
        default: false
        }
    }

    var words: String {
        switch self {
        case .cancelled: "cancelled"
        case .timedOut: "timed out"
        case .hostNotFound: "host not found"
        case .connectionRefused: "connection refused"
        case .connectFailed(let reason): "cannot connect: \(reason)"
        case .certificateRejected(.untrustedIssuer): "certificate not trusted"
        case .certificateRejected(.hostMismatch): "certificate does not match the host"
        case .certificateRejected(.invalid(_, let reason)): "certificate rejected: \(reason)"
        case .tlsHandshakeFailed: "TLS handshake failed"
        case .tlsSetupFailed(let detail): detail
        case .connectionLost(responseStarted: false): "connection lost"
        case .connectionLost(responseStarted: true): "connection lost mid-answer"
        case .unreadableResponse(let error):
            switch error {
            case .closedBeforeResponse, .closedInHead, .closedInBody, .headTooLarge, .bodyTooLarge: error.description
            default: "unreadable response: \(error.description)"
            }
        case .resourcesExhausted(let detail): detail
        }
    }
}
