import Locking

/// Hands a connection's events to every listener. Each listener has its own stream with a bounded
/// buffer (the newest events win), so a listener that stops reading costs memory for 256 events at
/// most and never holds up the I/O thread that emits them.
final class NATSEventBroadcaster: Sendable {
    private struct State {
        var listeners: [Int: AsyncStream<NATSConnectionEvent>.Continuation] = [:]
        var nextID = 0
        var finished = false
    }

    static let bufferLimit = 256
    private let state = Locked(State())

    func stream() -> AsyncStream<NATSConnectionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: NATSConnectionEvent.self, bufferingPolicy: .bufferingNewest(Self.bufferLimit))
        let id = state.withLock { state -> Int? in
            guard !state.finished else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.listeners[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    func emit(_ event: NATSConnectionEvent) {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.yield(event) }
    }

    /// The last event has been emitted: every stream ends, and later listeners get an ended stream.
    func finish() {
        let listeners = state.withLock { state in
            state.finished = true
            defer { state.listeners.removeAll() }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }
}
