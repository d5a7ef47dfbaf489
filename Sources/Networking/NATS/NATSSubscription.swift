import Synchronization

/// A live subscription. `messages` yields what the server delivers, in order, until `unsubscribe()`
/// or the connection closes; it survives reconnects (the subscription is sent again to the next server).
///
/// A slow consumer never holds up the connection: the I/O thread hands messages over without waiting,
/// into a buffer of `bufferLimit` messages, and when that is full the oldest one goes (for quotes the
/// newest matter). Every drop is counted in `droppedCount`, and the connection emits one
/// `.slowConsumer` event per episode.
public final class NATSSubscription: Sendable {
    public let subject: String
    public let queueGroup: String?
    public let bufferLimit: Int
    public let messages: AsyncStream<NATSMessage>
    /// The subscription's id on the wire.
    public let sid: String
    private let continuation: AsyncStream<NATSMessage>.Continuation
    private let channel: NATSIOChannel
    private let dropped = Atomic<Int>(0)

    init(subject: String, queueGroup: String?, sid: String, bufferLimit: Int, channel: NATSIOChannel) {
        self.subject = subject
        self.queueGroup = queueGroup
        self.sid = sid
        self.bufferLimit = max(1, bufferLimit)
        self.channel = channel
        (messages, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(max(1, bufferLimit)))
        // A consumer that stops listening (its task cancelled) no longer needs the subscription.
        continuation.onTermination = { [channel] termination in
            if case .cancelled = termination { _ = channel.enqueue(.unsubscribe(sid: sid)) }
        }
    }

    /// Messages dropped because the consumer did not keep up, or because their headers were unreadable.
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// Stops the subscription: the server is told, and `messages` ends.
    public func unsubscribe() {
        if case .failure = channel.enqueue(.unsubscribe(sid: sid)) { continuation.finish() }
    }

    // MARK: - The I/O thread

    enum Delivery: Equatable {
        /// Handed over; `buffered` messages are now waiting.
        case delivered(buffered: Int)
        /// Handed over, and the oldest waiting message was dropped to make room.
        case droppedOldest
        case ended
    }

    func deliver(_ message: NATSMessage) -> Delivery {
        switch continuation.yield(message) {
        case .enqueued(let remaining):
            return .delivered(buffered: bufferLimit - remaining)
        case .dropped:
            dropped.add(1, ordering: .relaxed)
            return .droppedOldest
        case .terminated:
            return .ended
        @unknown default:
            return .ended
        }
    }

    func countDrop() {
        dropped.add(1, ordering: .relaxed)
    }

    func finish() {
        continuation.finish()
    }
}
