import COpenSSL
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `wss://`: OpenSSL over a connected non-blocking TCP socket.
///
/// Verification is on unless `allowInsecureTLS` says otherwise: the peer's chain must reach a CA from
/// the system store (SSL_CTX_set_default_verify_paths) or the optional extra CA file, and the leaf must
/// name the host we dialled (SSL's hostname check; IP literals against IP SANs). SNI carries the host
/// name (never an IP, RFC 6066 §3). TLS 1.2 is the floor.
///
/// An SSL object is not safe for concurrent use; this one belongs to the connection's I/O thread, which
/// is also why errors can be read from OpenSSL's per-thread error queue right after each call.
final class TLSTransport: WebSocketTransport {
    private let tcp: TCPTransport
    private let context: OpaquePointer
    private let ssl: OpaquePointer
    private let host: String

    var descriptor: Int32 { tcp.descriptor }
    var hasBufferedInput: Bool { SSL_pending(ssl) > 0 }

    init(over tcp: TCPTransport, endpoint: WebSocketEndpoint, caFile: String?, allowInsecure: Bool) throws(WebSocketError) {
        self.tcp = tcp
        host = endpoint.host
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw .tls("cannot create a TLS context: \(Self.openSSLError())") }
        // Before SSL_new, which copies the context's protocol bounds into the session.
        _ = cb_ssl_ctx_require_tls12(context)
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw .tls("cannot create a TLS session: \(Self.openSSLError())")
        }
        self.context = context
        self.ssl = ssl

        _ = cb_ssl_set_partial_write_modes(ssl)
        if allowInsecure {
            SSL_set_verify(ssl, SSL_VERIFY_NONE, nil)
        } else {
            guard SSL_CTX_set_default_verify_paths(context) == 1 else {
                throw .tls("cannot load the system CA store: \(Self.openSSLError())")
            }
            if let caFile {
                guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
                    throw .tls("cannot load CA file \(caFile): \(Self.openSSLError())")
                }
            }
            SSL_set_verify(ssl, SSL_VERIFY_PEER, nil)
            guard cb_ssl_expect_peer_name(ssl, endpoint.host) == 1 else {
                throw .tls("cannot set the expected certificate name \(endpoint.host)")
            }
        }
        if !endpoint.hostIsIPAddress {
            guard cb_ssl_set_server_name(ssl, endpoint.host) == 1 else {
                throw .tls("cannot set the TLS server name \(endpoint.host)")
            }
        }
        guard SSL_set_fd(ssl, tcp.descriptor) == 1 else { throw .tls("cannot attach TLS to the socket: \(Self.openSSLError())") }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    /// Runs the TLS handshake to completion or `deadline`.
    func handshake(deadline: ContinuousClock.Instant, timeoutDescription: String, wakePipe: WebSocketWakePipe, isCancelled: () -> Bool) throws(WebSocketError) {
        while true {
            ERR_clear_error()
            let result = SSL_connect(ssl)
            if result == 1 { return }
            let wait: WebSocketTransportWait
            switch SSL_get_error(ssl, result) {
            case SSL_ERROR_WANT_READ: wait = .readable
            case SSL_ERROR_WANT_WRITE: wait = .writable
            default: throw handshakeError()
            }
            let readiness = WebSocketPoller.wait(socket: descriptor, for: [wait], wakeDescriptor: wakePipe.readDescriptor, until: deadline)
            if readiness.woken {
                wakePipe.drain()
                if isCancelled() { throw .network("connection cancelled") }
            }
            if !readiness.readable, !readiness.writable, !readiness.failed, ContinuousClock.now >= deadline {
                throw .timedOut(timeoutDescription)
            }
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(WebSocketError) -> WebSocketTransportProgress {
        ERR_clear_error()
        let count = SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
        if count > 0 { return .transferred(Int(count)) }
        return try progress(afterFailedCall: count)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(WebSocketError) -> WebSocketTransportProgress {
        guard bytes.count > 0 else { return .transferred(0) }
        ERR_clear_error()
        let count = SSL_write(ssl, bytes.baseAddress, Int32(clamping: bytes.count))
        if count > 0 { return .transferred(Int(count)) }
        return try progress(afterFailedCall: count)
    }

    /// Sends close_notify once, without waiting for the peer's: the socket is closed right after.
    func shutdown() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
    }

    // MARK: - Private

    private func progress(afterFailedCall result: Int32) throws(WebSocketError) -> WebSocketTransportProgress {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: return .wouldBlock(.readable)
        case SSL_ERROR_WANT_WRITE: return .wouldBlock(.writable)
        case SSL_ERROR_ZERO_RETURN: return .closed
        case SSL_ERROR_SYSCALL:
            // A reset (or, before OpenSSL 3, EOF without close_notify): either way the peer is gone.
            throw .network("connection lost")
        default:
            // OpenSSL 3 reports EOF without close_notify as SSL_ERROR_SSL ("unexpected eof while
            // reading"), not SSL_ERROR_SYSCALL. The interop test that drops the TCP connection mid-frame
            // got `.tls` here, where plain ws:// gives `.network`; and the I/O loop treats only `.network`
            // as the peer hanging up (expected while closing). A vanished peer is a network failure.
            if Self.isUnexpectedEOF() { throw .network("connection lost") }
            throw .tls(Self.openSSLError())
        }
    }

    /// A failed verification becomes a `.certificateRejected` that tells apart what the user can act on:
    /// an issuer we do not trust (a CA file is missing) from a certificate for another host (the URL is
    /// wrong), by SSL_get_verify_result; the rest keep X509_verify_cert_error_string's words.
    private func handshakeError() -> WebSocketError {
        let verifyResult = SSL_get_verify_result(ssl)
        if verifyResult != X509_V_OK {
            ERR_clear_error()
            return .certificateRejected(Self.rejection(verifyResult: verifyResult, host: host))
        }
        // An EOF is the peer going away, not a TLS failure (see `progress(afterFailedCall:)`).
        if Self.isUnexpectedEOF() {
            ERR_clear_error()
            return .network("connection lost during the TLS handshake with \(host)")
        }
        let detail = Self.openSSLError()
        if detail == "unknown error" { return .network("connection lost during the TLS handshake with \(host)") }
        return .tls("handshake with \(host) failed: \(detail)")
    }

    static func rejection(verifyResult: Int, host: String) -> WebSocketCertificateRejection {
        let reason = String(cString: X509_verify_cert_error_string(verifyResult))
        switch Int32(truncatingIfNeeded: verifyResult) {
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
            return .hostMismatch(host: host)
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
             X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
             X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_CERT_UNTRUSTED:
            return .untrustedIssuer(host: host, reason: reason)
        default:
            return .invalid(host: host, reason: reason)
        }
    }

    private static func isUnexpectedEOF() -> Bool {
        let code = ERR_peek_error()
        return code != 0 && ERR_GET_REASON(code) == SSL_R_UNEXPECTED_EOF_WHILE_READING
    }

    private static func openSSLError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0, let reason = ERR_reason_error_string(code) else { return "unknown error" }
        return String(cString: reason)
    }
}
