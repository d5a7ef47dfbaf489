import Locking

/// A session's events on their way to the hub, in order, then an end: clean (`finish()`) or a failure
/// (`finish(throwing:)`), thrown after the events before it.
///
/// It takes the place of `AsyncThrowingStream<QuoteEvent, any Error>` on the hottest path of the app:
/// every quote of every streaming broker goes through one. The standard library's stream is generic code
/// that is not specialised for its element, so it looks up generic metadata on every `yield` and every
/// `next` (a tenth of a session's CPU at 10,000 events a second), and its consumer takes one element per
/// lock. Here the element is fixed, and a consumer takes everything waiting for one lock and then reads
/// it from its own buffer; a parked consumer is resumed once, however many events arrive before it runs.
///
/// The same contract as the stream it replaces: `onTermination` runs once, with `.finished` when the
/// producer finishes or `.cancelled` when the consumer goes away (its task cancelled while it waits, or
/// the last copy of the sequence and its iterators released), and events yielded after either are dropped.
public struct QuoteEvents: AsyncSequence, Sendable {
    public typealias Element = QuoteEvent
    public typealias Failure = any Error

    /// Why `onTermination` ran.
    public enum Termination: Sendable, Equatable {
        case finished
        case cancelled
    }

    /// How many events may wait for the consumer, and which go when more come.
    public enum BufferingPolicy: Sendable, Equatable {
        case unbounded
        /// Keeps the oldest: a new event finding the buffer full is refused (`.dropped`).
        case bufferingOldest(Int)
        /// Keeps the newest: a new event finding the buffer full pushes out the oldest waiting.
        case bufferingNewest(Int)
    }

    /// What became of a yielded event.
    public enum YieldResult: Sendable, Equatable {
        /// Queued; `remaining` more fit (`Int.max` when unbounded).
        case enqueued(remaining: Int)
        /// The buffer was full: this event (`.bufferingOldest`) or the oldest waiting one
        /// (`.bufferingNewest`) was dropped.
        case dropped(QuoteEvent)
        /// The sequence has ended; nothing was queued.
        case terminated
    }

    private let consumer: Consumer

    /// A new sequence and the producer's handle to it.
    public static func makeStream(bufferingPolicy: BufferingPolicy = .unbounded) -> (stream: QuoteEvents, continuation: Continuation) {
        let storage = Storage(policy: bufferingPolicy)
        return (QuoteEvents(consumer: Consumer(storage: storage)), Continuation(storage: storage))
    }

    /// Everything waiting, in order, parking while nothing does; nil once finished and drained, or once
    /// the consumer was cancelled. Throws the failure the producer finished with, after the events before
    /// it. Runs on the caller's actor, so a consumer on an actor takes its batch without a hop.
    public func nextBatch(isolation actor: isolated (any Actor)? = #isolation) async throws -> [QuoteEvent]? {
        try await consumer.storage.nextBatch(isolation: actor)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(consumer: consumer)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        private let consumer: Consumer
        private var batch: [QuoteEvent] = []
        private var index = 0

        fileprivate init(consumer: Consumer) {
            self.consumer = consumer
        }

        public mutating func next() async throws -> QuoteEvent? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> QuoteEvent? {
            if index == batch.count {
                guard let next = try await consumer.storage.nextBatch(isolation: actor) else { return nil }
                batch = next
                index = 0
            }
            defer { index += 1 }
            return batch[index]
        }
    }

    /// The producer's side. Holding it does not keep the consumer's side alive.
    public final class Continuation: Sendable {
        private let storage: Storage

        fileprivate init(storage: Storage) {
            self.storage = storage
        }

        /// Runs once, when the sequence finishes or its consumer goes away; at once if that already
        /// happened.
        public var onTermination: (@Sendable (Termination) -> Void)? {
            get { storage.onTermination }
            set { storage.setOnTermination(newValue) }
        }

        /// Queues `event` for the consumer, as the buffering policy allows.
        @discardableResult
        public func yield(_ event: QuoteEvent) -> YieldResult {
            storage.push(event)
        }

        /// Ends the sequence once the consumer has taken what waits: cleanly, or by throwing `error`.
        public func finish(throwing error: (any Error)? = nil) {
            storage.finish(throwing: error)
        }
    }

    /// The consumer's side: when the last copy of the sequence and of its iterators goes, the consumer
    /// has gone, as when an `AsyncThrowingStream` is released.
    fileprivate final class Consumer: Sendable {
        let storage: Storage

        init(storage: Storage) {
            self.storage = storage
        }

        deinit {
            storage.cancel()
        }
    }

    fileprivate final class Storage: Sendable {
        private enum End {
            case finished
            case failed(any Error)
        }

        private enum Take {
            case batch([QuoteEvent])
            case end(End?)
            case wait
        }

        private struct State {
            /// Waiting for the consumer from `head` on: a buffer that keeps the newest drops its oldest by
            /// moving `head`, not by moving every event after it.
            var events: [QuoteEvent] = []
            var head = 0
            var waiter: UnsafeContinuation<Void, Never>?
            /// What the producer ended with; taken (set to nil, `isDrained`) once reported.
            var end: End?
            var isDrained = false
            var isCancelled = false
            var onTermination: (@Sendable (Termination) -> Void)?
            /// `onTermination` has run (or will, just outside the lock).
            var isTerminated = false

            var hasEnded: Bool { end != nil || isDrained || isCancelled }
            var count: Int { events.count - head }

            /// Everything waiting, leaving nothing.
            mutating func takeAll() -> [QuoteEvent] {
                defer { (events, head) = ([], 0) }
                return head == 0 ? events : Array(events[head...])
            }

            /// `onTermination`, taken so that it runs once.
            mutating func terminate() -> (@Sendable (Termination) -> Void)? {
                guard !isTerminated else { return nil }
                isTerminated = true
                defer { onTermination = nil }
                return onTermination
            }
        }

        private let policy: BufferingPolicy
        private let state = Locked(State())

        init(policy: BufferingPolicy) {
            self.policy = policy
        }

        var onTermination: (@Sendable (Termination) -> Void)? {
            state.withLock { $0.onTermination }
        }

        func setOnTermination(_ handler: (@Sendable (Termination) -> Void)?) {
            // After the end, a handler runs at once, with how it ended.
            let late = state.withLock { state -> Termination? in
                guard !state.isTerminated else { return state.isCancelled ? .cancelled : .finished }
                state.onTermination = handler
                return nil
            }
            if let late { handler?(late) }
        }

        func push(_ event: QuoteEvent) -> YieldResult {
            let (result, waiter) = state.withLock { state -> (YieldResult, UnsafeContinuation<Void, Never>?) in
                guard !state.hasEnded else { return (.terminated, nil) }
                switch policy {
                case .unbounded:
                    state.events.append(event)
                    return (.enqueued(remaining: .max), state.waiter.take())
                case .bufferingOldest(let limit):
                    guard state.count < limit else { return (.dropped(event), nil) }
                    state.events.append(event)
                    return (.enqueued(remaining: limit - state.count), state.waiter.take())
                case .bufferingNewest(let limit):
                    guard limit > 0 else { return (.dropped(event), nil) }
                    state.events.append(event)
                    guard state.count > limit else { return (.enqueued(remaining: limit - state.count), state.waiter.take()) }
                    let oldest = state.events[state.head]
                    state.head += 1
                    if state.head >= 1_024, state.head * 2 >= state.events.count {
                        state.events.removeFirst(state.head)
                        state.head = 0
                    }
                    return (.dropped(oldest), state.waiter.take())
                }
            }
            waiter?.resume()
            return result
        }

        func finish(throwing error: (any Error)?) {
            let (waiter, handler) = state.withLock { state -> (UnsafeContinuation<Void, Never>?, (@Sendable (Termination) -> Void)?) in
                guard !state.hasEnded else { return (nil, nil) }
                state.end = error.map(End.failed) ?? .finished
                return (state.waiter.take(), state.terminate())
            }
            waiter?.resume()
            handler?(.finished)
        }

        func cancel() {
            let (waiter, handler) = state.withLock { state -> (UnsafeContinuation<Void, Never>?, (@Sendable (Termination) -> Void)?) in
                guard !state.isCancelled else { return (nil, nil) }
                state.isCancelled = true
                _ = state.takeAll()
                return (state.waiter.take(), state.terminate())
            }
            waiter?.resume()
            handler?(.cancelled)
        }

        func nextBatch(isolation actor: isolated (any Actor)?) async throws -> [QuoteEvent]? {
            while true {
                let outcome = state.withLock { state -> Take in
                    if state.isCancelled { return .end(nil) }
                    if state.count > 0 { return .batch(state.takeAll()) }
                    if state.isDrained { return .end(nil) }
                    guard let end = state.end else { return .wait }
                    state.end = nil
                    state.isDrained = true
                    return .end(end)
                }
                switch outcome {
                case .batch(let events): return events
                case .end(.failed(let error)): throw error
                case .end: return nil
                case .wait: break
                }
                let parked = await state.parkConsumer(isolation: actor, onCancel: { [self] in cancel() }) { state, continuation in
                    guard state.count == 0, state.end == nil, !state.isDrained, !state.isCancelled else { return false }
                    state.waiter = continuation
                    return true
                }
                if !parked { return nil }
            }
        }
    }
}
