import Locking

/// What other threads hand to a connection's I/O thread, behind one short lock, plus the pipe that
/// wakes it. The I/O thread takes everything at once and works on it without the lock.
final class WebSocketIOChannel: Sendable {
    typealias Completion = CheckedContinuation<Result<Void, WebSocketError>, Never>

    enum Request: Sendable {
        /// An encoded frame and who waits for it to reach the kernel.
        case send([UInt8], Completion)
        /// Start the close handshake with this frame.
        case close(WebSocketCloseFrame)
    }

    private struct State {
        var requests: [Request] = []
        var acceptsSends = true
        var connectCancelled = false
        var ended = false
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    let wakePipe: WebSocketWakePipe
    private let state = Locked(State())

    init(wakePipe: WebSocketWakePipe) {
        self.wakePipe = wakePipe
    }

    // MARK: - Any thread

    /// False when the connection no longer takes messages (closing or closed); `completion` is then untouched.
    func enqueue(_ bytes: [UInt8], completion: Completion) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard state.acceptsSends else { return false }
            state.requests.append(.send(bytes, completion))
            return true
        }
        if accepted { wakePipe.wake() }
        return accepted
    }

    /// Asks for the close handshake (once; later requests only wait). `waiter`, if any, is resumed when
    /// the I/O thread has shut the connection down, at once if it already has.
    func requestClose(_ frame: WebSocketCloseFrame, waiter: CheckedContinuation<Void, Never>?) {
        let alreadyEnded = state.withLock { state -> Bool in
            if state.ended { return true }
            if let waiter { state.closeWaiters.append(waiter) }
            if state.acceptsSends {
                state.acceptsSends = false
                state.requests.append(.close(frame))
            }
            return false
        }
        if alreadyEnded {
            waiter?.resume()
        } else {
            wakePipe.wake()
        }
    }

    func cancelConnect() {
        state.withLock { $0.connectCancelled = true }
        wakePipe.wake()
    }

    // MARK: - The I/O thread

    var isConnectCancelled: Bool { state.withLock { $0.connectCancelled } }

    func takeRequests() -> [Request] {
        wakePipe.drain()
        return state.withLock { state in
            defer { state.requests.removeAll() }
            return state.requests
        }
    }

    /// After a failure or the peer's close: new sends fail at once instead of queueing behind a close.
    func stopAcceptingSends() {
        state.withLock { $0.acceptsSends = false }
    }

    /// The connection is gone: returns requests nobody will serve and everyone waiting for the close.
    func end() -> (unserved: [Request], closeWaiters: [CheckedContinuation<Void, Never>]) {
        state.withLock { state in
            state.ended = true
            state.acceptsSends = false
            defer {
                state.requests.removeAll()
                state.closeWaiters.removeAll()
            }
            return (state.requests, state.closeWaiters)
        }
    }
}
