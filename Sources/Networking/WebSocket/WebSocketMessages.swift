import Locking

/// A connection's messages on their way from its I/O thread to its reader, in order, then an end: clean
/// (`finish()`) or a failure (`finish(throwing:)`), thrown after the messages before it.
///
/// It takes the place of `AsyncThrowingStream<WebSocketMessage, any Error>`, for the reason `QuoteEvents`
/// took the place of the stream behind it: every message of every streaming broker passes here, and the
/// standard library's stream is generic code that is not specialised for its element, so it looked up
/// generic metadata on every `yield` and every `next` (a sampled profile at 1,000 events a second found
/// the two among the app's largest costs), and its reader took one message per lock. Here the element is
/// fixed, the reader takes everything waiting for one lock, and a parked reader is resumed once however
/// many messages arrive before it runs. Nothing is ever dropped: the I/O thread reads no faster than the
/// paced slots and the socket's buffer allow, and the reader keeps up.
///
/// The same contract as the stream it replaces: `onTermination` runs once, with `.finished` when the
/// producer finishes or `.cancelled` when the reader goes away (its task cancelled while it waits, or the
/// last copy of the sequence and its iterators released), and messages yielded after either are dropped.
public struct WebSocketMessages: AsyncSequence, Sendable {
    public typealias Element = WebSocketMessage
    public typealias Failure = any Error

    /// Why `onTermination` ran.
    public enum Termination: Sendable, Equatable {
        case finished
        case cancelled
    }

    private let consumer: Consumer

    /// A new sequence and the producer's handle to it.
    public static func makeStream() -> (stream: WebSocketMessages, continuation: Continuation) {
        let storage = Storage()
        return (WebSocketMessages(consumer: Consumer(storage: storage)), Continuation(storage: storage))
    }

    /// Everything waiting, in order, parking while nothing does; nil once finished and drained, or once
    /// the reader was cancelled. Throws the failure the producer finished with, after the messages before it.
    public func nextBatch(isolation actor: isolated (any Actor)? = #isolation) async throws -> [WebSocketMessage]? {
        try await consumer.storage.next(upTo: .max, isolation: actor)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(consumer: consumer)
    }

    /// Takes one message at a time, so an iterator that is dropped after a few (a test reading the first
    /// message, then another iterator the next) leaves the rest for whoever reads after it.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let consumer: Consumer

        fileprivate init(consumer: Consumer) {
            self.consumer = consumer
        }

        public mutating func next() async throws -> WebSocketMessage? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> WebSocketMessage? {
            try await consumer.storage.next(upTo: 1, isolation: actor)?.first
        }
    }

    /// The producer's side. Holding it does not keep the reader's side alive.
    public final class Continuation: Sendable {
        private let storage: Storage

        fileprivate init(storage: Storage) {
            self.storage = storage
        }

        /// Runs once, when the sequence finishes or its reader goes away; at once if that already happened.
        public var onTermination: (@Sendable (Termination) -> Void)? {
            get { storage.onTermination }
            set { storage.setOnTermination(newValue) }
        }

        /// Queues `message` for the reader; false when the sequence has ended and it was dropped.
        @discardableResult
        public func yield(_ message: WebSocketMessage) -> Bool {
            storage.push(message)
        }

        /// Ends the sequence once the reader has taken what waits: cleanly, or by throwing `error`.
        public func finish(throwing error: (any Error)? = nil) {
            storage.finish(throwing: error)
        }
    }

    /// The reader's side: when the last copy of the sequence and of its iterators goes, the reader has
    /// gone, as when an `AsyncThrowingStream` is released.
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
            case batch([WebSocketMessage])
            case end(End?)
            case wait
        }

        private struct State {
            /// Waiting for the reader from `head` on: taking one moves `head`, not every message after it.
            var messages: [WebSocketMessage] = []
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
            var count: Int { messages.count - head }

            /// Up to `limit` of the messages waiting, the oldest first.
            mutating func take(upTo limit: Int) -> [WebSocketMessage] {
                if limit >= count {
                    defer { (messages, head) = ([], 0) }
                    return head == 0 ? messages : Array(messages[head...])
                }
                defer {
                    head += limit
                    // A reader that takes one at a time while more keep coming would otherwise keep every
                    // message it has read.
                    if head >= 1_024, head * 2 >= messages.count {
                        messages.removeFirst(head)
                        head = 0
                    }
                }
                return Array(messages[head..<head + limit])
            }

            /// `onTermination`, taken so that it runs once.
            mutating func terminate() -> (@Sendable (Termination) -> Void)? {
                guard !isTerminated else { return nil }
                isTerminated = true
                defer { onTermination = nil }
                return onTermination
            }
        }

        private let state = Locked(State())

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

        func push(_ message: WebSocketMessage) -> Bool {
            let (queued, waiter) = state.withLock { state -> (Bool, UnsafeContinuation<Void, Never>?) in
                guard !state.hasEnded else { return (false, nil) }
                state.messages.append(message)
                return (true, state.waiter.take())
            }
            waiter?.resume()
            return queued
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
                (state.messages, state.head) = ([], 0)
                return (state.waiter.take(), state.terminate())
            }
            waiter?.resume()
            handler?(.cancelled)
        }

        /// Up to `limit` (at least one) of the messages waiting, parking while there are none.
        func next(upTo limit: Int, isolation actor: isolated (any Actor)?) async throws -> [WebSocketMessage]? {
            while true {
                let outcome = state.withLock { state -> Take in
                    if state.isCancelled { return .end(nil) }
                    if state.count > 0 { return .batch(state.take(upTo: limit)) }
                    if state.isDrained { return .end(nil) }
                    guard let end = state.end else { return .wait }
                    state.end = nil
                    state.isDrained = true
                    return .end(end)
                }
                switch outcome {
                case .batch(let messages): return messages
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
