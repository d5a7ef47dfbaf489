import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-blocking TCP connection (IPv4 or IPv6), and the plain `ws://` transport.
final class TCPTransport: WebSocketTransport {
    let descriptor: Int32
    var hasBufferedInput: Bool { false }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Why `open` found no connection, for callers that word it themselves.
    enum ConnectFailure: Error, Equatable {
        /// getaddrinfo's error text.
        case unresolved(String)
        case cancelled
        case timedOut
        /// The last address's errno (0: the resolver returned no address).
        case failed(errno: Int32)
    }

    /// Resolves `host` and tries its addresses in the resolver's order (RFC 6724 puts the better family
    /// first) until one accepts, all within `deadline`. `isCancelled` is asked whenever the wake pipe
    /// fires. DNS itself cannot be interrupted: getaddrinfo blocks this thread only.
    static func connect(
        host: String,
        port: Int,
        deadline: ContinuousClock.Instant,
        timeoutDescription: String,
        wakePipe: WebSocketWakePipe,
        isCancelled: () -> Bool
    ) throws(WebSocketError) -> TCPTransport {
        do {
            return try open(host: host, port: port, deadline: deadline, wakePipe: wakePipe, isCancelled: isCancelled)
        } catch {
            switch error {
            case .unresolved(let reason): throw .network("cannot resolve \(host): \(reason)")
            case .cancelled: throw .network("connection cancelled")
            case .timedOut: throw .timedOut(timeoutDescription)
            case .failed(let code):
                throw .network("cannot connect to \(host):\(port): \(code == 0 ? "no address" : String(cString: strerror(code)))")
            }
        }
    }

    /// `connect`, with the failure as a value.
    static func open(
        host: String,
        port: Int,
        deadline: ContinuousClock.Instant,
        wakePipe: WebSocketWakePipe,
        isCancelled: () -> Bool
    ) throws(ConnectFailure) -> TCPTransport {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocketType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw .unresolved(String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }

        var lastError: Int32 = 0
        var candidate: UnsafeMutablePointer<addrinfo>? = list
        while let address = candidate {
            candidate = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, streamSocketType, address.pointee.ai_protocol)
            guard descriptor >= 0 else {
                lastError = errno
                continue
            }
            let transport = TCPTransport(descriptor: descriptor)
            transport.configure()
            if systemConnect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
                return transport
            }
            guard errno == EINPROGRESS else {
                lastError = errno
                continue
            }
            while true {
                let readiness = WebSocketPoller.wait(socket: descriptor, for: [.writable], wakeDescriptor: wakePipe.readDescriptor, until: deadline)
                if readiness.woken {
                    wakePipe.drain()
                    if isCancelled() { throw .cancelled }
                }
                if readiness.writable || readiness.failed { break }
                if ContinuousClock.now >= deadline { throw .timedOut }
            }
            var socketError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &socketError, &length)
            if socketError == 0 { return transport }
            lastError = socketError
        }
        throw .failed(errno: lastError)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(WebSocketError) -> WebSocketTransportProgress {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .transferred(count) }
            if count == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock(.readable)
            default: throw .network("connection lost")
            }
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(WebSocketError) -> WebSocketTransportProgress {
        while true {
            let count = send(descriptor, bytes.baseAddress, bytes.count, Self.sendFlags)
            if count >= 0 { return .transferred(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock(.writable)
            default: throw .network("connection lost")
            }
        }
    }

    func shutdown() {}

    // MARK: - Private

    private func configure() {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        // Frames are written whole; Nagle would only delay small subscribe messages and pongs.
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    #if canImport(Glibc)
    private static let streamSocketType = Int32(SOCK_STREAM.rawValue)
    /// A peer that vanished must be an error, not SIGPIPE killing the app.
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let streamSocketType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    #endif
}

/// `connect` is shadowed inside `TCPTransport` by its own static method.
private func systemConnect(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}
