import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Locking

/// One request and its answer, on a thread of its own: take an idle connection to the origin or open one,
/// write the request, read the answer with `HTTPResponseParser`, give the connection back if it may carry
/// another request. Every wait is one poll() on the socket and a wake-up pipe, bounded by the request's
/// deadline, so a server that says nothing costs no CPU; cancelling writes to the pipe, and the thread
/// stops and closes the socket at once.
///
/// The waiting task is answered exactly once, by whichever comes first: the thread's outcome, or the
/// cancellation (which then does not wait for the thread, stuck perhaps in getaddrinfo, which nothing can
/// interrupt; the thread ends on its own and its connection is closed, never pooled).
final class HTTPExchange: Sendable {
    typealias Outcome = Result<HTTPResponse, HTTPExchangeFailure>

    struct Settings: Sendable {
        var timeout: Duration
        var tls: HTTPConnection.TLSSettings
        var limits: HTTPResponseParser.Limits
    }

    private struct State {
        var reply: (@Sendable (Outcome) -> Void)?
        var cancelled = false
        var answered = false
    }

    /// Every exchange's thread has this name (Linux keeps 15 bytes of one), for `top -H` and the test that
    /// measures what a silent server costs.
    static let threadName = "http exchange"

    private let request: HTTPOutgoingRequest
    private let pool: HTTPConnectionPool
    private let settings: Settings
    private let wakePipe: WebSocketWakePipe
    private let state = Locked(State())

    init(request: HTTPOutgoingRequest, pool: HTTPConnectionPool, settings: Settings) throws(HTTPExchangeFailure) {
        self.request = request
        self.pool = pool
        self.settings = settings
        do {
            wakePipe = try WebSocketWakePipe()
        } catch {
            throw .resourcesExhausted(error.description)
        }
    }

    /// Starts the exchange's thread; `reply` is called once, from that thread or from `cancel`.
    func start(reply: @escaping @Sendable (Outcome) -> Void) {
        let cancelledAlready = state.withLock { state -> Bool in
            if state.cancelled { return true }
            state.reply = reply
            return false
        }
        if cancelledAlready {
            reply(.failure(.cancelled))
            return
        }
        let thread = Thread { [self] in
            KernelThreadName.setForCurrentThread(Self.threadName)
            answer(perform())
        }
        thread.start()
    }

    func cancel() {
        let reply = state.withLock { state -> (@Sendable (Outcome) -> Void)? in
            state.cancelled = true
            guard !state.answered else { return nil }
            state.answered = true
            defer { state.reply = nil }
            return state.reply
        }
        wakePipe.wake()
        reply?(.failure(.cancelled))
    }

    private var isCancelled: Bool { state.withLock { $0.cancelled } }

    private func answer(_ outcome: Outcome) {
        let reply = state.withLock { state -> (@Sendable (Outcome) -> Void)? in
            guard !state.answered else { return nil }
            state.answered = true
            defer { state.reply = nil }
            return state.reply
        }
        reply?(outcome)
    }

    // MARK: - On the exchange's thread

    private func perform() -> Outcome {
        PipeSignal.blockOnThisThread()

        let deadline = ContinuousClock.now + settings.timeout
        var mayReuse = true
        while true {
            let connection: HTTPConnection
            let reused: Bool
            if mayReuse, let idle = pool.take(for: request.origin) {
                connection = idle
                reused = true
            } else {
                do {
                    connection = try HTTPConnection.open(
                        to: request.origin, tls: settings.tls, deadline: deadline, wakePipe: wakePipe, isCancelled: { isCancelled })
                } catch {
                    return .failure(error)
                }
                reused = false
            }
            do {
                let (response, keepAlive) = try exchange(on: connection, deadline: deadline)
                if keepAlive, !isCancelled { pool.put(connection) } else { connection.close() }
                return .success(response)
            } catch {
                connection.close()
                // RFC 9112 §9.3.1: a kept-alive connection the server closed before our request reached it
                // looks like this; an idempotent request goes again, once, on a new connection.
                if reused, error.isStaleConnection, request.isIdempotent, !isCancelled {
                    mayReuse = false
                    continue
                }
                return .failure(error)
            }
        }
    }

    /// Writes the request and reads the answer. Returns it and whether the connection may be used again.
    private func exchange(on connection: HTTPConnection, deadline: ContinuousClock.Instant) throws(HTTPExchangeFailure) -> (HTTPResponse, Bool) {
        let transport = connection.transport
        var unsent = request.bytes[...]
        while !unsent.isEmpty {
            if isCancelled { throw .cancelled }
            let progress: WebSocketTransportProgress
            do {
                progress = try unsent.withUnsafeBytes { bytes throws(WebSocketError) in try transport.write(bytes) }
            } catch {
                throw .connectionLost(responseStarted: false)
            }
            switch progress {
            case .transferred(let count): unsent = unsent.dropFirst(count)
            case .wouldBlock(let wait): try self.wait(for: wait, on: transport, until: deadline)
            case .closed: throw .connectionLost(responseStarted: false)
            }
        }

        var parser = HTTPResponseParser(requestMethod: request.method, limits: settings.limits)
        var head: HTTPResponseHead?
        var body = Data()
        var responseStarted = false
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let event: HTTPResponseParser.Event
            do {
                event = try parser.next()
            } catch {
                throw .unreadableResponse(error)
            }
            switch event {
            case .head(let received):
                head = received
            case .body(let piece):
                body.append(contentsOf: piece)
            case .end(_, let keepAlive):
                // Trailers are dropped: no broker sends any, and a trailer may not override a header field
                // anyway (RFC 9110 §6.5.2), which is all `HTTPResponse` could hold it as.
                guard let head else { throw .unreadableResponse(.closedBeforeResponse) }
                let response = HTTPResponse(status: head.status, headers: head.headers, body: body)
                return (response, keepAlive && parser.surplusByteCount == 0)
            case .needsMore:
                if isCancelled { throw .cancelled }
                let progress: WebSocketTransportProgress
                do {
                    progress = try transport.read(into: buffer)
                } catch {
                    throw .connectionLost(responseStarted: responseStarted)
                }
                switch progress {
                case .transferred(let count):
                    responseStarted = true
                    parser.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                case .closed:
                    parser.appendEndOfStream()
                case .wouldBlock(let wait):
                    try self.wait(for: wait, on: transport, until: deadline)
                }
            }
        }
    }

    /// Sleeps in poll() until the socket is ready, the pipe wakes us (a cancellation), or the deadline.
    private func wait(for wait: WebSocketTransportWait, on transport: any WebSocketTransport, until deadline: ContinuousClock.Instant) throws(HTTPExchangeFailure) {
        let readiness = WebSocketPoller.wait(socket: transport.descriptor, for: [wait], wakeDescriptor: wakePipe.readDescriptor, until: deadline)
        if readiness.woken { wakePipe.drain() }
        if isCancelled { throw .cancelled }
        if !readiness.readable, !readiness.writable, !readiness.failed, ContinuousClock.now >= deadline { throw .timedOut }
    }
}
