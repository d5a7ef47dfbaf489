import Domain
import Locking
import Networking

/// One broker stream over one WebSocket, driven by a `StreamSessionMachine`.
///
/// A reader task takes the frames waiting, decodes them outside the lock, then feeds their events to the
/// machine under a `Locked` and carries out its actions while still holding it; the hub's subscribe and
/// unsubscribe do the same. Outgoing messages are only queued under the lock, and one writer task sends them in queue order:
/// what reaches the broker follows the order of the machine's decisions (an unsubscribe never overtakes
/// the subscribe it undoes), and no one awaits while holding the lock.
///
/// A text frame that does not decode is skipped and reported as `.skippedFrame`; it does not end the session.
/// Whatever ends the `events` stream (a failure the machine reports, the connection ending, `close()`,
/// or the hub dropping the stream) also closes the WebSocket, through the stream's termination handler.
final class StreamSocketSession<Machine: StreamSessionMachine>: QuoteStreamSession {
    let events: QuoteEvents
    private let core: Core
    private let reader: Task<Void, Never>
    private let writer: Task<Void, Never>

    /// How long a failed send waits for the reader to say why the connection ended (see the writer).
    static var defaultWriteFailureGrace: Duration { .seconds(2) }

    init(connection: any WebSocketConnection, machine: Machine, writeFailureGrace: Duration = defaultWriteFailureGrace) {
        let (events, continuation) = QuoteEvents.makeStream()
        let (outbox, outboxContinuation) = AsyncStream.makeStream(of: Outgoing.self)
        continuation.onTermination = { _ in
            outboxContinuation.yield(.close)
            outboxContinuation.finish()
        }
        let core = Core(machine: machine, events: continuation, outbox: outboxContinuation)
        let name = Machine.brokerName

        writer = Task.preferred {
            for await item in outbox {
                switch item {
                case .text(let text):
                    do throws(WebSocketError) {
                        try await connection.send(.text(text))
                    } catch {
                        let failure = BrokerError.network("\(name) stream: \(error)")
                        // A refused message leaves the connection open: this is the whole story.
                        if case .protocolViolation = error {
                            core.end(failure)
                            continue
                        }
                        // Otherwise the connection is ending, and the reader is about to hear why from
                        // `messages`: the broker's close code or its error message, which say far more than
                        // "broken pipe" (an auth failure is permanent; a write error would be retried). The
                        // write error ends the session only if the reader has not within the grace period.
                        Task.preferred {
                            try? await Task.sleep(for: writeFailureGrace)
                            core.end(failure)
                        }
                    }
                case .close:
                    await connection.close(code: 1000, reason: "")
                    return
                }
            }
        }
        reader = Task.preferred {
            do {
                // Everything the I/O thread read since the last wake-up, at once: a paced read hands over
                // a frame interval's messages together, and they go through the machine under one lock.
                while let messages = try await connection.messages.nextBatch() {
                    // Both brokers send JSON text; binary would be MessagePack, which we never ask for.
                    // A frame that does not decode is skipped (see `receive(frame:)`); the connection's
                    // own faults, which `messages` throws, are what end the session. Decoded outside the lock.
                    let frames = messages.compactMap { message -> Result<[Machine.Event], any Error>? in
                        guard case .text(let text) = message else { return nil }
                        return Result { try Machine.decode(text) }
                    }
                    guard !frames.isEmpty else { continue }
                    guard core.apply({ machine in frames.flatMap { machine.receive(frame: $0) } }) else { return }
                }
                core.end(.network("\(name) stream: connection closed by the server"))
            } catch {
                core.end(.network("\(name) stream: \(error)"))
            }
        }
        self.events = events
        self.core = core
    }

    deinit {
        core.end(nil)
        reader.cancel()
    }

    func subscribe(_ symbols: Set<String>) async {
        core.apply { $0.subscribe(symbols) }
    }

    func unsubscribe(_ symbols: Set<String>) async {
        core.apply { $0.unsubscribe(symbols) }
    }

    /// Finishes `events` without an error and returns once the WebSocket's close has returned.
    func close() async {
        core.end(nil)
        reader.cancel()
        await writer.value
    }

    private enum Outgoing: Sendable {
        case text(String)
        case close
    }

    /// The machine and both streams' continuations, shared by the session and its tasks.
    private final class Core: Sendable {
        private struct State: Sendable {
            var machine: Machine
            var ended = false
        }

        private let state: Locked<State>
        private let events: QuoteEvents.Continuation
        private let outbox: AsyncStream<Outgoing>.Continuation

        init(
            machine: Machine, events: QuoteEvents.Continuation,
            outbox: AsyncStream<Outgoing>.Continuation
        ) {
            self.state = Locked(State(machine: machine))
            self.events = events
            self.outbox = outbox
        }

        /// Runs one step of the machine and carries out its actions; false once the session has ended.
        ///
        /// The events a step emits go to the hub together, under one lock of `events`, where yielding
        /// each took that lock once per quote (a read's step emits every quote of a frame interval).
        /// A failure still comes after the events before it.
        @discardableResult
        func apply(_ step: (inout Machine) -> [StreamSessionAction]) -> Bool {
            state.withLock { state in
                guard !state.ended else { return false }
                var emitted: [QuoteEvent] = []
                for action in step(&state.machine) {
                    switch action {
                    case .send(let text):
                        outbox.yield(.text(text))
                    case .emit(let event):
                        emitted.append(event)
                    case .fail(let error):
                        state.ended = true
                        events.yield(contentsOf: emitted)
                        events.finish(throwing: error)
                        return false
                    }
                }
                if !emitted.isEmpty { events.yield(contentsOf: emitted) }
                return true
            }
        }

        /// Ends the session with `error` (nil: a clean finish) unless it has already ended.
        func end(_ error: BrokerError?) {
            state.withLock { state in
                guard !state.ended else { return }
                state.ended = true
                if let error { events.finish(throwing: error) } else { events.finish() }
            }
        }
    }
}
