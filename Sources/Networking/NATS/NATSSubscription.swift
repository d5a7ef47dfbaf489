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
    /// The subscription's id on the wire.
    public let sid: String
    private let mailbox: NATSMailbox<NATSMessage>
    /// Where the I/O thread hands each message: this subscription's own mailbox, or the mailbox of the
    /// code that made it (a KV watch feeds its driver without a task in between).
    private let push: @Sendable (NATSMessage) -> NATSMailboxPush
    private let end: @Sendable () -> Void
    private let channel: NATSIOChannel
    private let dropped = Atomic<Int>(0)

    init(subject: String, queueGroup: String?, sid: String, bufferLimit: Int, channel: NATSIOChannel) {
        self.subject = subject
        self.queueGroup = queueGroup
        self.sid = sid
        self.bufferLimit = max(1, bufferLimit)
        self.channel = channel
        // A consumer that stops listening (its task cancelled) no longer needs the subscription.
        let mailbox = NATSMailbox<NATSMessage>(limit: max(1, bufferLimit)) { [channel] in
            _ = channel.enqueue(.unsubscribe(sid: sid))
        }
        self.mailbox = mailbox
        push = { mailbox.push($0) }
        end = { mailbox.finish() }
    }

    /// A subscription whose messages go to `push` (on the I/O thread: it must not block) rather than to
    /// `messages`, which stays empty; `end` runs when the subscription ends.
    init(
        subject: String, sid: String, channel: NATSIOChannel,
        push: @escaping @Sendable (NATSMessage) -> NATSMailboxPush, end: @escaping @Sendable () -> Void
    ) {
        self.subject = subject
        queueGroup = nil
        self.sid = sid
        bufferLimit = .max
        self.channel = channel
        mailbox = NATSMailbox(limit: 1)
        mailbox.finish()
        self.push = push
        self.end = end
    }

    /// What the server delivers, in order, until `unsubscribe()` or the connection closes. Cancelling
    /// the task that reads it unsubscribes.
    public var messages: NATSMailboxSequence<NATSMessage> { NATSMailboxSequence(mailbox) }

    /// Every message waiting, in order, parking while none does; nil once the subscription has ended.
    public func nextBatch(isolation actor: isolated (any Actor)? = #isolation) async -> [NATSMessage]? {
        await mailbox.nextBatch(isolation: actor)
    }

    /// Messages dropped because the consumer did not keep up, or because their headers were unreadable.
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// Stops the subscription: the server is told, and `messages` ends.
    public func unsubscribe() {
        if case .failure = channel.enqueue(.unsubscribe(sid: sid)) { end() }
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
        switch push(message) {
        case .enqueued(let buffered):
            return .delivered(buffered: buffered)
        case .droppedOldest, .refused:
            dropped.add(1, ordering: .relaxed)
            return .droppedOldest
        case .ended:
            return .ended
        }
    }

    func countDrop() {
        dropped.add(1, ordering: .relaxed)
    }

    func finish() {
        end()
    }
}
