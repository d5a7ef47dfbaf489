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
            // Kept from read to read, so a read's frames cost no allocation once the buffers have grown.
            var decoded: [Machine.Event] = []
            var frames: [DecodedFrame] = []
            do {
                // Everything the I/O thread read since the last wake-up, at once: a paced read hands over
                // a frame interval's messages together, and they go through the machine under one lock.
                while let messages = try await connection.messages.nextBatch() {
                    Self.decode(messages, into: &decoded, frames: &frames)
                    guard !frames.isEmpty else { continue }
                    let isOpen = core.apply { machine, actions in
                        var start = decoded.startIndex
                        for frame in frames {
                            switch frame {
                            case .events(let end):
                                machine.receive(decoded[start..<end], into: &actions)
                                start = end
                            case .skipped(let action):
                                actions.append(action)
                            }
                        }
                    }
                    guard isOpen else { return }
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

    /// One text frame of a read: its events end at `end` in the read's buffer of decoded events, or it
    /// did not decode and is reported as skipped.
    private enum DecodedFrame {
        case events(end: Int)
        case skipped(StreamSessionAction)
    }

    /// Decodes a read's messages, outside the session's lock, into `decoded` and `frames` (emptied first).
    /// Both brokers send JSON text; binary would be MessagePack, which we never ask for. A frame that
    /// does not decode is skipped (see `StreamSessionMachine.decode(frame:into:)`); the connection's own
    /// faults, which `messages` throws, are what end the session.
    private static func decode(_ messages: [WebSocketMessage], into decoded: inout [Machine.Event], frames: inout [DecodedFrame]) {
        decoded.removeAll(keepingCapacity: true)
        frames.removeAll(keepingCapacity: true)
        for message in messages {
            guard case .text(let text) = message else { continue }
            if let skipped = Machine.decode(frame: text, into: &decoded) {
                frames.append(.skipped(skipped))
            } else {
                frames.append(.events(end: decoded.count))
            }
        }
    }

    /// The machine and both streams' continuations, shared by the session and its tasks.
    private final class Core: Sendable {
        private struct State: Sendable {
            var machine: Machine
            var ended = false
            /// What the step being applied asks for; empty between steps, its capacity kept.
            var actions: [StreamSessionAction] = []
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
        /// A failure still comes after the events before it; what comes after a failure is dropped.
        @discardableResult
        func apply(_ step: (inout Machine, inout [StreamSessionAction]) -> Void) -> Bool {
            state.withLock { state in
                guard !state.ended else { return false }
                step(&state.machine, &state.actions)
                let failure = carryOut(state.actions)
                // Emptied only now that nothing else holds the buffer, so it keeps its capacity.
                state.actions.removeAll(keepingCapacity: true)
                guard let failure else { return true }
                state.ended = true
                events.finish(throwing: failure)
                return false
            }
        }

        /// Queues the sends and yields the events of `actions` up to the first failure, which it returns.
        private func carryOut(_ actions: [StreamSessionAction]) -> BrokerError? {
            var failure: BrokerError?
            var carried = actions.endIndex
            scan: for index in actions.indices {
                switch actions[index] {
                case .send(let text):
                    outbox.yield(.text(text))
                case .emit:
                    continue
                case .fail(let error):
                    (failure, carried) = (error, index)
                    break scan
                }
            }
            let emitted = actions[..<carried].lazy.compactMap { action -> QuoteEvent? in
                if case .emit(let event) = action { event } else { nil }
            }
            if !emitted.isEmpty { events.yield(contentsOf: emitted) }
            return failure
        }

        /// One step that returns its actions (the hub's subscribe and unsubscribe).
        @discardableResult
        func apply(_ step: (inout Machine) -> [StreamSessionAction]) -> Bool {
            apply { machine, actions in actions += step(&machine) }
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
