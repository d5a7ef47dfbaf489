import Domain
import Synchronization

/// What one subscriber has not seen yet, and the wake-up that tells it so.
///
/// The hub never copies a quote into a mailbox: it stores the quote once in the key's `QuoteSlot`
/// and calls `signal()` on each follower, which costs one atomic load while the follower still has
/// an unconsumed wake-up. The follower drains everything that changed since its last batch in one
/// go, so a slow reader skips intermediate prices, always lands on the newest, and holds memory
/// bounded by its keys. The wake-up is an `AsyncStream<Void>` buffering at most one element.
final class SubscriberMailbox: Sendable {
    let id: Int
    private let board: BrokerStateBoard
    private let wakeUp: AsyncStream<Void>.Continuation
    /// Set when a wake-up is buffered and not yet consumed; spares repeated `yield`s under load.
    private let pending = Atomic<Bool>(false)
    private let contents: Mutex<Contents>

    private struct Followed {
        let slot: QuoteSlot
        /// The slot version this subscriber has taken.
        var seen: UInt64
    }

    private struct Contents {
        var followed: [QuoteKey: Followed] = [:]
        var brokerSeen: [UInt64]
        /// Cached values owed at once: the first batch, or symbols just added.
        var replay = MarketUpdate()
        var isFinished = false
    }

    /// The mailbox for the hub, and the stream of batches for the subscriber. `onCancelled` runs
    /// when the consumer goes away without `finish()`: its task was cancelled or it dropped the stream.
    static func make(
        id: Int, board: BrokerStateBoard, onCancelled: @escaping @Sendable () -> Void
    ) -> (SubscriberMailbox, AsyncStream<MarketUpdate>) {
        let (wake, wakeUp) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wakeUp.onTermination = { termination in
            if case .cancelled = termination { onCancelled() }
        }
        let mailbox = SubscriberMailbox(id: id, board: board, wakeUp: wakeUp)
        // Only this closure holds `wake`: when the subscriber drops `updates`, the wake stream goes
        // with it and its termination handler releases the subscription.
        let updates = AsyncStream<MarketUpdate>(
            unfolding: {
                var iterator = wake.makeAsyncIterator()
                while await iterator.next() != nil {
                    if let batch = mailbox.takeBatch() { return batch }
                }
                return nil
            },
            // A task cancelled before it ever waits on `wake` only reaches this handler.
            onCancel: onCancelled
        )
        return (mailbox, updates)
    }

    private init(id: Int, board: BrokerStateBoard, wakeUp: AsyncStream<Void>.Continuation) {
        self.id = id
        self.board = board
        self.wakeUp = wakeUp
        contents = Mutex(Contents(brokerSeen: board.versions))
    }

    var followedKeys: [QuoteKey] { contents.withLock { Array($0.followed.keys) } }

    /// Follows `slots` from their current version on; `replay` carries what they held until now.
    func follow(_ slots: [QuoteSlot], replay: MarketUpdate) {
        contents.withLock { contents in
            guard !contents.isFinished else { return }
            for slot in slots { contents.followed[slot.key] = Followed(slot: slot, seen: slot.version) }
            contents.replay.quotes.merge(replay.quotes) { _, new in new }
            contents.replay.failures.merge(replay.failures) { _, new in new }
            contents.replay.brokerStates.merge(replay.brokerStates) { _, new in new }
        }
        signal()
    }

    func unfollow(_ keys: some Sequence<QuoteKey>) {
        contents.withLock { contents in
            for key in keys {
                contents.followed[key] = nil
                contents.replay.quotes[key] = nil
                contents.replay.failures[key] = nil
            }
        }
    }

    /// Something this subscriber may want changed. Called for every quote: keep it cheap.
    func signal() {
        guard !pending.load(ordering: .relaxed) else { return }
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wakeUp.yield()
    }

    /// Ends the subscriber's stream once it has taken what is already owed.
    func finish() {
        contents.withLock { $0.isFinished = true }
        wakeUp.finish()
    }

    /// Everything changed since the previous batch, or nil when a wake-up found nothing new.
    func takeBatch() -> MarketUpdate? {
        // Cleared before reading: a change stored after this point signals again, so none is lost.
        pending.store(false, ordering: .sequentiallyConsistent)
        let batch = contents.withLock { contents in
            var update = contents.replay
            contents.replay = MarketUpdate()
            for index in contents.followed.values.indices {
                let slot = contents.followed.values[index].slot
                slot.collect(since: &contents.followed.values[index].seen, into: &update)
            }
            board.collect(since: &contents.brokerSeen, into: &update)
            return update
        }
        return batch.isEmpty ? nil : batch
    }
}
