import Locking

/// What other threads hand to a connection's I/O thread, behind one short lock, plus the pipe that
/// wakes it, and what the I/O thread publishes back (status, the server's INFO). The I/O thread takes
/// every request at once and works on them without the lock.
///
/// Bounded: publications (and requests, which publish) count their bytes against `pendingBytesLimit`
/// from the moment they are queued here until the I/O thread has written them; beyond it a publish
/// fails at once with `outboundBufferFull` instead of growing memory while the server is away.
final class NATSIOChannel: Sendable {
    typealias Completion = CheckedContinuation<Result<Void, NATSError>, Never>
    typealias ReplyCompletion = CheckedContinuation<Result<NATSMessage, NATSError>, Never>

    enum Request: Sendable {
        case publish([UInt8])
        case subscribe(NATSSubscription)
        case unsubscribe(sid: String)
        /// Publishes `bytes` (with the reply subject of `token`) and waits up to `timeout` for the reply.
        case request(token: UInt64, subject: String, bytes: [UInt8], timeout: Duration, completion: ReplyCompletion)
        case cancelRequest(token: UInt64)
        /// Completes once the server has answered a PING sent after everything queued before it.
        case flush(timeout: Duration, completion: Completion)
    }

    enum Refusal: Error {
        case closed
        case bufferFull
    }

    private struct State {
        var requests: [Request] = []
        var pendingBytes = 0
        var acceptsRequests = true
        var closeRequested = false
        var ended = false
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
        var status = NATSConnectionStatus.connecting
        var serverInfo: NATSServerInfo?
        var server: NATSServerAddress?
        var knownServers: [NATSServerAddress] = []
    }

    let wakePipe: WebSocketWakePipe
    let pendingBytesLimit: Int
    private let state = Locked(State())

    init(wakePipe: WebSocketWakePipe, pendingBytesLimit: Int) {
        self.wakePipe = wakePipe
        self.pendingBytesLimit = pendingBytesLimit
    }

    // MARK: - Any thread

    /// Queues `request`; `countedBytes` are publication bytes held against the limit until written.
    /// Wakes the I/O thread only when the queue was empty: a fuller queue has a wake-up pending already,
    /// or the I/O thread has not yet taken it (it drains the pipe before it takes the queue).
    func enqueue(_ request: Request, countedBytes: Int = 0) -> Result<Void, Refusal> {
        let outcome = state.withLock { state -> Result<Bool, Refusal> in
            guard state.acceptsRequests else { return .failure(.closed) }
            if countedBytes > 0, state.pendingBytes + countedBytes > pendingBytesLimit { return .failure(.bufferFull) }
            state.pendingBytes += countedBytes
            state.requests.append(request)
            return .success(state.requests.count == 1)
        }
        switch outcome {
        case .success(let wasEmpty):
            if wasEmpty { wakePipe.wake() }
            return .success(())
        case .failure(let refusal):
            return .failure(refusal)
        }
    }

    /// Asks the I/O thread to close (once; later calls only wait). `waiter`, if any, is resumed when the
    /// connection is closed, at once if it already is.
    func requestClose(waiter: CheckedContinuation<Void, Never>?) {
        let alreadyEnded = state.withLock { state -> Bool in
            if state.ended { return true }
            if let waiter { state.closeWaiters.append(waiter) }
            state.acceptsRequests = false
            state.closeRequested = true
            return false
        }
        if alreadyEnded {
            waiter?.resume()
        } else {
            wakePipe.wake()
        }
    }

    var status: NATSConnectionStatus { state.withLock { $0.status } }
    var serverInfo: NATSServerInfo? { state.withLock { $0.serverInfo } }
    var server: NATSServerAddress? { state.withLock { $0.server } }
    var knownServers: [NATSServerAddress] { state.withLock { $0.knownServers } }
    var maxPayload: Int { state.withLock { $0.serverInfo?.maxPayload } ?? NATSProtocolParser.defaultMaxPayload }

    // MARK: - The I/O thread

    var isCloseRequested: Bool { state.withLock { $0.closeRequested } }

    /// Everything queued, and whether a close was asked for.
    func takeRequests() -> (requests: [Request], closeRequested: Bool) {
        wakePipe.drain()
        return state.withLock { state in
            defer { state.requests.removeAll(keepingCapacity: true) }
            return (state.requests, state.closeRequested)
        }
    }

    /// Publication bytes written (or dropped) no longer count against the limit.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        state.withLock { $0.pendingBytes = max(0, $0.pendingBytes - bytes) }
    }

    func update(status: NATSConnectionStatus, server: NATSServerAddress?, serverInfo: NATSServerInfo?) {
        state.withLock { state in
            state.status = status
            state.server = server
            if let serverInfo { state.serverInfo = serverInfo }
        }
    }

    func update(serverInfo: NATSServerInfo) {
        state.withLock { $0.serverInfo = serverInfo }
    }

    func update(knownServers: [NATSServerAddress]) {
        state.withLock { $0.knownServers = knownServers }
    }

    /// The connection is gone: returns requests nobody will serve and everyone waiting for the close.
    func end() -> (unserved: [Request], closeWaiters: [CheckedContinuation<Void, Never>]) {
        state.withLock { state in
            state.ended = true
            state.acceptsRequests = false
            state.status = .closed
            state.server = nil
            state.pendingBytes = 0
            defer {
                state.requests.removeAll()
                state.closeWaiters.removeAll()
            }
            return (state.requests, state.closeWaiters)
        }
    }
}
