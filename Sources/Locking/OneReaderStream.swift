/// An async sequence with one reader and any number of producers: what they yield, in order, then an
/// end, clean (`finish()`) or a failure (`finish(throwing:)`), thrown after the elements before it.
///
/// It takes the place of `AsyncThrowingStream` on the app's hot paths (`QuoteEvents`: every quote of
/// every streaming broker on its way to the hub; `WebSocketMessages`: every message from a connection's
/// I/O thread to its session). The standard library's stream is generic code that is not specialised for
/// its element, so it looks up generic metadata on every `yield` and every `next` (a tenth of a session's
/// CPU at 10,000 events a second), and its reader takes one element per lock. This one is `@inlinable`
/// throughout, so each module that names a concrete element gets code specialised for it; `nextBatch`
/// takes everything waiting for one lock, and a parked reader is resumed once, however many elements
/// arrive before it runs.
///
/// The same contract as `AsyncThrowingStream`: `onTermination` runs once, with `.finished` when the
/// producer finishes or `.cancelled` when the reader goes away (its task cancelled while it waits, or
/// the last copy of the sequence and its iterators released), and elements yielded after either are
/// dropped. The iterator takes one element at a time, so an iterator dropped after a few leaves the rest
/// for whoever reads next.
public struct OneReaderStream<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = any Error

    /// Why `onTermination` ran.
    public enum Termination: Sendable, Equatable {
        case finished
        case cancelled
    }

    /// How many elements may wait for the reader, and which go when more come.
    public enum BufferingPolicy: Sendable, Equatable {
        case unbounded
        /// Keeps the oldest: a new element finding the buffer full is refused (`.dropped`).
        case bufferingOldest(Int)
        /// Keeps the newest: a new element finding the buffer full pushes out the oldest waiting.
        case bufferingNewest(Int)
    }

    /// What became of a yielded element.
    public enum YieldResult: Sendable {
        /// Queued; `remaining` more fit (`Int.max` when unbounded).
        case enqueued(remaining: Int)
        /// The buffer was full: this element (`.bufferingOldest`) or the oldest waiting one
        /// (`.bufferingNewest`) was dropped.
        case dropped(Element)
        /// The sequence has ended; nothing was queued.
        case terminated
    }

    @usableFromInline let consumer: Consumer

    @inlinable init(consumer: Consumer) {
        self.consumer = consumer
    }

    /// A new sequence and the producers' handle to it.
    @inlinable
    public static func makeStream(bufferingPolicy: BufferingPolicy = .unbounded) -> (stream: Self, continuation: Continuation) {
        let storage = Storage(policy: bufferingPolicy)
        return (Self(consumer: Consumer(storage: storage)), Continuation(storage: storage))
    }

    /// Everything waiting, in order, parking while nothing does; nil once finished and drained, or once
    /// the reader was cancelled. Throws the failure the producer finished with, after the elements before
    /// it. Runs on the caller's actor, so a reader on an actor takes its batch without a hop.
    @inlinable
    public func nextBatch(isolation actor: isolated (any Actor)? = #isolation) async throws -> [Element]? {
        try await consumer.storage.take(isolation: actor) { $0.takeAll() }
    }

    /// Whether the reader is parked waiting for an element: for tests that must yield to a parked
    /// reader rather than race it.
    var isReaderParked: Bool {
        consumer.storage.state.withLock { $0.waiter != nil }
    }

    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(consumer: consumer)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline let consumer: Consumer

        @inlinable init(consumer: Consumer) {
            self.consumer = consumer
        }

        @inlinable
        public mutating func next() async throws -> Element? {
            try await next(isolation: nil)
        }

        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            try await consumer.storage.take(isolation: actor) { $0.takeFirst() }
        }
    }

    /// The producers' side. Holding it does not keep the reader's side alive.
    public final class Continuation: Sendable {
        @usableFromInline let storage: Storage

        @inlinable init(storage: Storage) {
            self.storage = storage
        }

        /// Runs once, when the sequence finishes or its reader goes away; at once if that already happened.
        @inlinable
        public var onTermination: (@Sendable (Termination) -> Void)? {
            get { storage.state.withLock { $0.onTermination } }
            set { storage.setOnTermination(newValue) }
        }

        /// Queues `element` for the reader, as the buffering policy allows.
        @inlinable @discardableResult
        public func yield(_ element: Element) -> YieldResult {
            storage.push(element)
        }

        /// Queues every element in order, as one `yield` each would, but wakes the reader once.
        @inlinable
        public func yield(contentsOf elements: some Sequence<Element>) {
            storage.push(contentsOf: elements)
        }

        /// Ends the sequence once the reader has taken what waits: cleanly, or by throwing `error`.
        @inlinable
        public func finish(throwing error: (any Error)? = nil) {
            storage.finish(throwing: error)
        }
    }

    /// The reader's side: when the last copy of the sequence and of its iterators goes, the reader has
    /// gone, as when an `AsyncThrowingStream` is released.
    @usableFromInline final class Consumer: Sendable {
        @usableFromInline let storage: Storage

        @inlinable init(storage: Storage) {
            self.storage = storage
        }

        deinit {
            storage.cancel()
        }
    }

    @usableFromInline final class Storage: Sendable {
        @usableFromInline enum End {
            case finished
            case failed(any Error)
        }

        @usableFromInline enum Outcome<Taken> {
            case taken(Taken)
            case end(End?)
            case wait
        }

        @usableFromInline struct State {
            /// Waiting for the reader from `head` on: a buffer that keeps the newest drops its oldest, and
            /// an iterator takes its one, by moving `head`, not every element after it.
            @usableFromInline var elements: [Element] = []
            @usableFromInline var head = 0
            @usableFromInline var waiter: UnsafeContinuation<Void, Never>?
            /// What the producer ended with; taken (set to nil, `isDrained`) once reported.
            @usableFromInline var end: End?
            @usableFromInline var isDrained = false
            @usableFromInline var isCancelled = false
            @usableFromInline var onTermination: (@Sendable (Termination) -> Void)?
            /// `onTermination` has run (or will, just outside the lock).
            @usableFromInline var isTerminated = false

            @inlinable init() {}

            @inlinable var hasEnded: Bool { end != nil || isDrained || isCancelled }
            @inlinable var count: Int { elements.count - head }

            /// Everything waiting, leaving nothing.
            @inlinable mutating func takeAll() -> [Element] {
                defer { (elements, head) = ([], 0) }
                return head == 0 ? elements : Array(elements[head...])
            }

            /// The oldest waiting; there must be one.
            @inlinable mutating func takeFirst() -> Element {
                let first = elements[head]
                head += 1
                if head == elements.count {
                    (elements, head) = ([], 0)
                } else {
                    compact()
                }
                return first
            }

            /// Lets go of what lies before `head` once it is most of the buffer.
            @inlinable mutating func compact() {
                if head >= 1_024, head * 2 >= elements.count {
                    elements.removeFirst(head)
                    head = 0
                }
            }

            /// Queues `element` as `policy` allows; the caller wakes the reader when it was queued.
            /// `consuming`: a producer's element moves into the buffer rather than being copied there and
            /// then destroyed by the producer (for a quote, about a hundred bytes each way).
            @inlinable mutating func append(_ element: consuming Element, policy: BufferingPolicy) -> YieldResult {
                guard !hasEnded else { return .terminated }
                switch policy {
                case .unbounded:
                    elements.append(element)
                    return .enqueued(remaining: .max)
                case .bufferingOldest(let limit):
                    guard count < limit else { return .dropped(element) }
                    elements.append(element)
                    return .enqueued(remaining: limit - count)
                case .bufferingNewest(let limit):
                    guard limit > 0 else { return .dropped(element) }
                    elements.append(element)
                    guard count > limit else { return .enqueued(remaining: limit - count) }
                    let oldest = elements[head]
                    head += 1
                    compact()
                    return .dropped(oldest)
                }
            }

            /// `onTermination`, taken so that it runs once.
            @inlinable mutating func terminate() -> (@Sendable (Termination) -> Void)? {
                guard !isTerminated else { return nil }
                isTerminated = true
                defer { onTermination = nil }
                return onTermination
            }
        }

        @usableFromInline let policy: BufferingPolicy
        @usableFromInline let state = Locked(State())

        @inlinable init(policy: BufferingPolicy) {
            self.policy = policy
        }

        @inlinable func setOnTermination(_ handler: (@Sendable (Termination) -> Void)?) {
            // After the end, a handler runs at once, with how it ended.
            let late = state.withLock { state -> Termination? in
                guard !state.isTerminated else { return state.isCancelled ? .cancelled : .finished }
                state.onTermination = handler
                return nil
            }
            if let late { handler?(late) }
        }

        @inlinable func push(_ element: Element) -> YieldResult {
            let (result, waiter) = state.withLock { state -> (YieldResult, UnsafeContinuation<Void, Never>?) in
                let result = state.append(element, policy: policy)
                // A reader parks only on an empty buffer: anything waiting now was just queued.
                return (result, state.count > 0 ? state.waiter.take() : nil)
            }
            waiter?.resume()
            return result
        }

        /// Every element under one lock, and the parked reader resumed once: a producer that has several
        /// at hand (the messages of one read) wakes the reader once rather than racing it element by
        /// element.
        @inlinable func push(contentsOf elements: some Sequence<Element>) {
            let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
                for element in elements {
                    if case .terminated = state.append(element, policy: policy) { break }
                }
                return state.count > 0 ? state.waiter.take() : nil
            }
            waiter?.resume()
        }

        @inlinable func finish(throwing error: (any Error)?) {
            let (waiter, handler) = state.withLock { state -> (UnsafeContinuation<Void, Never>?, (@Sendable (Termination) -> Void)?) in
                guard !state.hasEnded else { return (nil, nil) }
                state.end = error.map(End.failed) ?? .finished
                return (state.waiter.take(), state.terminate())
            }
            waiter?.resume()
            handler?(.finished)
        }

        @inlinable func cancel() {
            let (waiter, handler) = state.withLock { state -> (UnsafeContinuation<Void, Never>?, (@Sendable (Termination) -> Void)?) in
                guard !state.isCancelled else { return (nil, nil) }
                state.isCancelled = true
                (state.elements, state.head) = ([], 0)
                return (state.waiter.take(), state.terminate())
            }
            waiter?.resume()
            handler?(.cancelled)
        }

        /// What `take` takes from the waiting elements (at least one is waiting when it runs), parking
        /// while none are; nil once finished and drained, or cancelled; the producer's failure once.
        @inlinable func take<Taken>(isolation actor: isolated (any Actor)?, _ take: @Sendable (inout State) -> Taken) async throws -> Taken? {
            while true {
                let outcome = state.withLock { state -> Outcome<Taken> in
                    if state.isCancelled { return .end(nil) }
                    if state.count > 0 { return .taken(take(&state)) }
                    if state.isDrained { return .end(nil) }
                    guard let end = state.end else { return .wait }
                    state.end = nil
                    state.isDrained = true
                    return .end(end)
                }
                switch outcome {
                case .taken(let taken): return taken
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

extension OneReaderStream.YieldResult: Equatable where Element: Equatable {}
