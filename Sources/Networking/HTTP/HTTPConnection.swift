#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open connection to an origin, plain or TLS, that may carry one request after another.
///
/// Owned by one thread at a time: the exchange using it, or the idle pool (behind its lock) between
/// exchanges. It moves between threads only through that lock, which is why it may be `Sendable` although
/// its transport (and OpenSSL's SSL object in it) is not safe for concurrent use.
final class HTTPConnection: @unchecked Sendable {
    let origin: HTTPOrigin
    let transport: any WebSocketTransport

    private init(origin: HTTPOrigin, transport: any WebSocketTransport) {
        self.origin = origin
        self.transport = transport
    }

    struct TLSSettings: Sendable, Hashable {
        var extraCAFile: String?
        var allowInsecure: Bool
    }

    /// TCP, then the TLS handshake for https, within `deadline`; the same certificate checks, CA file and
    /// SNI as the WebSocket connector (`TLSTransport`).
    static func open(
        to origin: HTTPOrigin, tls: TLSSettings, deadline: ContinuousClock.Instant, wakePipe: WebSocketWakePipe, isCancelled: () -> Bool
    ) throws(HTTPExchangeFailure) -> HTTPConnection {
        let tcp: TCPTransport
        do {
            tcp = try TCPTransport.open(host: origin.host, port: origin.port, deadline: deadline, wakePipe: wakePipe, isCancelled: isCancelled)
        } catch {
            switch error {
            case .unresolved: throw .hostNotFound
            case .cancelled: throw .cancelled
            case .timedOut: throw .timedOut
            case .failed(let code) where code == ECONNREFUSED: throw .connectionRefused
            case .failed(let code): throw .connectFailed(code == 0 ? "no address" : String(cString: strerror(code)))
            }
        }
        guard origin.usesTLS else { return HTTPConnection(origin: origin, transport: tcp) }
        let secure: TLSTransport
        do {
            secure = try TLSTransport(over: tcp, endpoint: origin.tlsEndpoint, caFile: tls.extraCAFile, allowInsecure: tls.allowInsecure)
        } catch {
            throw .tlsSetupFailed(error.description)
        }
        do {
            try secure.handshake(deadline: deadline, timeoutDescription: "", wakePipe: wakePipe, isCancelled: isCancelled)
        } catch {
            if isCancelled() { throw .cancelled }
            switch error {
            case .timedOut: throw .timedOut
            case .certificateRejected(let rejection): throw .certificateRejected(rejection)
            default: throw .tlsHandshakeFailed
            }
        }
        return HTTPConnection(origin: origin, transport: secure)
    }

    /// Whether an idle connection can carry another request: the server has neither closed it nor sent
    /// anything unasked while it waited. A non-blocking read tells both apart from TLS records that carry
    /// no data (a TLS 1.3 session ticket, which OpenSSL consumes and then reports "would block").
    func isReusable() -> Bool {
        var descriptor = pollfd(fd: transport.descriptor, events: Int16(POLLIN), revents: 0)
        guard transport.hasBufferedInput || poll(&descriptor, 1, 0) != 0 else { return true }
        var byte: UInt8 = 0
        let progress = try? withUnsafeMutableBytes(of: &byte) { buffer throws(WebSocketError) in try transport.read(into: buffer) }
        if case .wouldBlock? = progress { return true }
        return false
    }

    /// TLS close_notify (non-blocking); the socket closes when the last reference goes.
    func close() {
        transport.shutdown()
    }
}
