import Foundation

/// A complete WebSocket message (fragments already joined, text already UTF-8 validated).
public enum WebSocketMessage: Sendable, Hashable {
    case text(String)
    case binary([UInt8])
}

/// Why a WebSocket failed or ended. Descriptions are short enough for the footer and never hold secrets.
public enum WebSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server did not upgrade: HTTP status and a short reason (e.g. 401 from a bad token in the URL).
    case handshakeFailed(status: Int, reason: String)
    /// TLS failure other than the certificate's: setup, a handshake alert, a protocol error.
    case tls(String)
    /// The server's certificate failed verification; permanent until the configuration changes.
    case certificateRejected(WebSocketCertificateRejection)
    /// TCP-level failure: refused, reset, DNS, unreachable.
    case network(String)
    /// No data (not even a pong) within the idle timeout, or no upgrade answer in time.
    case timedOut(String)
    /// The peer broke RFC 6455 (bad frame, bad UTF-8, oversized message, unmasked/masked misuse).
    case protocolViolation(String)
    /// The peer closed with a code and reason.
    case closed(code: UInt16, reason: String)

    public var description: String {
        switch self {
        case .handshakeFailed(let status, let reason): "websocket upgrade refused (HTTP \(status)): \(reason)"
        case .tls(let detail): "TLS: \(detail)"
        case .certificateRejected(let rejection): "TLS: \(rejection)"
        case .network(let detail): detail
        case .timedOut(let detail): "timed out: \(detail)"
        case .protocolViolation(let detail): "protocol error: \(detail)"
        case .closed(let code, let reason): reason.isEmpty ? "closed by server (\(code))" : "closed by server (\(code)): \(reason)"
        }
    }
}

/// An open WebSocket. `messages` yields every message until the connection ends: it finishes after a
/// clean close and throws `WebSocketError` otherwise.
public protocol WebSocketConnection: Sendable {
    var messages: WebSocketMessages { get }
    func send(_ message: WebSocketMessage) async throws(WebSocketError)
    /// Starts the close handshake (or just tears down if it cannot) and finishes `messages`.
    func close(code: UInt16, reason: String) async
}

/// Opens WebSockets. The live one speaks RFC 6455 over POSIX sockets (and OpenSSL for wss://); tests
/// inject scripted ones. Brokers take a connector, never a concrete client.
public protocol WebSocketConnector: Sendable {
    /// `headers` are added to the upgrade request (e.g. credentials). `secretNames` are header and query
    /// names whose values never appear in errors.
    func connect(to url: URL, headers: [String: String], secretNames: Set<String>) async throws(WebSocketError) -> any WebSocketConnection
}
