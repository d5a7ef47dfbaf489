import Domain
import Locking
import Synchronization

/// What one subscriber has not seen yet, and the wake-up that tells it so.
///
/// The hub never copies a quote into a mailbox: it stores the quote once in the key's `QuoteSlot`
/// and calls `signal(changed:)` on each follower, which costs one atomic load while the follower still
/// has an unconsumed wake-up (and an append to its `SlotChangeLog`, for a follower of many keys). The
/// follower drains everything that changed since its last batch in one go, so a slow reader skips
/// intermediate prices, always lands on the newest, and holds memory bounded by its keys.
///
/// The wake-up is the consumer task's own continuation, parked here while nothing is owed: one
/// resume per batch, with none of an `AsyncStream`'s buffer, lock and generic metadata lookups per
/// element (a fifth of the CPU per delivery with 100 subscribers on one symbol).
final class SubscriberMailbox: Sendable {
    let id: Int
    private let board: BrokerStateBoard
    /// Set when something changed that the consumer has not yet taken: spares repeated resumes under
    /// load, and tells a consumer about to park that it need not.
    private let pending = Atomic<Bool>(false)
    private let contents: Locked<Contents>
    private let waiter = Locked(Waiter())
    /// The log of slots stored, while the mailbox follows `changeLogThreshold` keys or more. Written only
    /// by the hub holding `contents` (`follow`, `unfollow`); read by the hub without it (`signal(changed:)`,
    /// on the hub like the writes) and by the consumer holding it (`takeBatch`). One reference, where the
    /// lock's value would have grown every mailbox's chunk of the lock (a one-symbol subscriber is
    /// counted in bytes).
    private nonisolated(unsafe) var log: SlotChangeLog?

    /// Below this many keys a batch visits every key. A log costs an append under its lock per quote and
    /// a table of positions (about 40 B a key), a visit a version load per key: at 64 keys, 10
    /// subscribers of 100 symbols each took 30 % fewer quotes a second at full speed (100x10 max ingest,
    /// 1.04M → 0.77M, A/B) and their memory per symbol doubled (49 → 92 B), while the app's one
    /// subscription to 2,000 rows spent a twelfth of its CPU visiting them. At 128 a subscriber of 100
    /// keys still visits, and the app's subscription to 50 symbols on four brokers (200 keys, in batches
    /// of one to thirty quotes) logs: visiting, its batches took 19k instructions each, a fifth of the
    /// market-data thread at 100 events/s (callgrind; 3.4k with the log).
    static let changeLogThreshold = 128

    private struct Followed {
        let slot: QuoteSlot
        /// The slot version this subscriber has taken.
        var seen: UInt64
    }

    private struct Contents {
        /// An array, not a dictionary keyed by `QuoteKey`: a batch visits every entry, and most
        /// subscribers follow few keys (a dictionary's storage was a third of a one-key subscriber).
        var followed: [Followed] = []
        /// The board version this subscriber has taken; 0 before its first batch.
        var brokerSeen: UInt64 = 0
        /// Cached values owed at once: the first batch, or symbols just added.
        var replay = MarketUpdate()
    }

    private struct Waiter {
        var continuation: UnsafeContinuation<Void, Never>?
        /// `finish()` was called: the consumer takes what is owed, then its stream ends.
        var isFinished = false
        /// The consumer went away (task cancelled, stream dropped): its stream ends at once.
        var isCancelled = false
    }

    /// A mailbox that has seen no broker state yet, so its first batch carries every broker's state.
    init(id: Int, board: BrokerStateBoard) {
        self.id = id
        self.board = board
        contents = Locked(Contents())
    }

    var followedKeys: [QuoteKey] { contents.withLock { $0.followed.map(\.slot.key) } }

    /// Follows `slots` from their current version on; `replay` carries what they held until now.
    func follow(_ slots: [QuoteSlot], replay: MarketUpdate) {
        let isFinished = waiter.withLock { $0.isFinished }
        guard !isFinished else { return }
        contents.withLock { contents in
            // The state machine follows only keys not followed yet, so no entry is ever doubled.
            contents.followed.reserveCapacity(contents.followed.count + slots.count)
            for slot in slots { contents.followed.append(Followed(slot: slot, seen: slot.version)) }
            fitLog(to: contents.followed, added: slots.count)
            // Broker states come from the board, newest first time round; keeping the replay's copy
            // would hold a dictionary per subscriber until its first read.
            contents.replay.quotes.merge(replay.quotes) { _, new in new }
            contents.replay.failures.merge(replay.failures) { _, new in new }
        }
        signalOutsideSlots()
    }

    func unfollow(_ keys: some Sequence<QuoteKey>) {
        let keys = Set(keys)
        contents.withLock { contents in
            contents.followed.removeAll { keys.contains($0.slot.key) }
            fitLog(to: contents.followed, added: nil)
            for key in keys {
                contents.replay.quotes[key] = nil
                contents.replay.failures[key] = nil
            }
        }
    }

    /// Starts, keeps or ends the log as the keys followed cross the threshold, and keeps its positions
    /// true to `followed` (`added`: that many were appended; nil: entries were removed). On the hub,
    /// holding `contents`.
    private func fitLog(to followed: [Followed], added: Int?) {
        guard followed.count >= Self.changeLogThreshold else {
            log = nil
            return
        }
        let log = self.log ?? SlotChangeLog()  // A new log starts overflowed: the first batch visits every key.
        let start: Int
        if let added, self.log != nil {
            start = followed.count - added
        } else {
            start = 0
            log.positions.removeAll(keepingCapacity: true)
        }
        log.positions.reserveCapacity(followed.count)
        for index in start..<followed.count { log.positions[ObjectIdentifier(followed[index].slot)] = index }
        log.setLimit(followed.count)
        self.log = log
    }

    /// `slot`, which this subscriber follows, was just stored: logs it (a follower of many keys) and
    /// wakes the consumer. The hub's call for every quote: keep it cheap. Logged before the wake-up: a
    /// batch that takes the log after this finds the slot there, and one that took it before is
    /// followed by the wake-up `signalOutsideSlots()` owes.
    func signal(changed slot: QuoteSlot) {
        if let log { log.append(slot) }
        signalOutsideSlots()
    }

    /// Something changed that is in no slot (a broker's state, a replay owed): wakes the consumer. After
    /// a slot's store, call `signal(changed:)`, which a follower of many keys needs to see the slot.
    func signalOutsideSlots() {
        // Sequentially consistent, paired with `takeBatch()`'s clear and `QuoteSlot`'s version: the
        // hub writes the version then reads `pending`, the consumer clears `pending` then reads the
        // version, and one of the two must see the other's write (free on x86: a plain load).
        guard !pending.load(ordering: .sequentiallyConsistent) else { return }
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        waiter.withLock { $0.continuation.take() }?.resume()
    }

    /// Ends the subscriber's stream once it has taken what is already owed.
    func finish() {
        waiter.withLock { waiter in
            waiter.isFinished = true
            return waiter.continuation.take()
        }?.resume()
    }

    /// The consumer's task was cancelled or its stream dropped: ends the stream. true the first time,
    /// unless the hub finished the stream itself: the hub must then forget the subscriber.
    func cancel() -> Bool {
        let (continuation, isNews) = waiter.withLock { waiter in
            let isNews = !waiter.isFinished && !waiter.isCancelled
            waiter.isCancelled = true
            return (waiter.continuation.take(), isNews)
        }
        continuation?.resume()
        return isNews
    }

    /// The consumer's side: the next non-empty batch, parking while nothing is owed; nil once the
    /// stream has ended. `consumerLeft` runs if the consumer's task is cancelled while parked.
    /// Inlined into the lease's `nextUpdate`: one async frame fewer per batch (3 % of the instructions
    /// per delivery under callgrind, 8,790 → 8,490 at 1x100).
    @inline(__always)
    func nextBatch(
        isolation actor: isolated (any Actor)? = #isolation, consumerLeft: @escaping @Sendable () -> Void = {}
    ) async -> MarketUpdate? {
        while true {
            let (isFinished, isCancelled) = waiter.withLock { ($0.isFinished, $0.isCancelled) }
            if isCancelled { return nil }
            if pending.load(ordering: .acquiring), let batch = takeBatch() { return batch }
            // Finished: whatever was owed has just been taken.
            if isFinished { return nil }
            await park(isolation: actor, consumerLeft: consumerLeft)
        }
    }

    /// For a consumer that takes more than the batch on each wake-up (a `MarketFeedGroup` also takes
    /// its members' replays, before the batch): returns true once something is owed, parking until
    /// then, without taking it; false once the stream has ended and nothing more is owed.
    @inline(__always)
    func waitUntilOwed(
        isolation actor: isolated (any Actor)? = #isolation, consumerLeft: @escaping @Sendable () -> Void = {}
    ) async -> Bool {
        while true {
            let (isFinished, isCancelled) = waiter.withLock { ($0.isFinished, $0.isCancelled) }
            if isCancelled { return false }
            if pending.load(ordering: .acquiring) { return true }
            if isFinished { return false }
            await park(isolation: actor, consumerLeft: consumerLeft)
        }
    }

    /// Parks the consumer until `signalOutsideSlots()`, `finish()` or `cancel()`; returns at once if one of them
    /// came first.
    @inline(__always)
    private func park(isolation actor: isolated (any Actor)?, consumerLeft: @escaping @Sendable () -> Void) async {
        // The handler is installed only around the park: a consumer that finds a batch waiting
        // pays for no cancellation record. Cancelled before this point, it runs at once.
        await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Void, Never>) in
                let resumeNow = waiter.withLock { waiter in
                    // `signalOutsideSlots()` sets `pending` before it looks for a parked consumer, so checking
                    // it under the lock here cannot miss a wake-up.
                    if pending.load(ordering: .acquiring) || waiter.isFinished || waiter.isCancelled { return true }
                    waiter.continuation = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            consumerLeft()
        }
    }

    /// Everything changed since the previous batch, or nil when a wake-up found nothing new.
    func takeBatch() -> MarketUpdate? {
        // Cleared before reading: a change stored after this point signals again, so none is lost.
        pending.store(false, ordering: .sequentiallyConsistent)
        let batch = contents.withLock { contents in
            var update = contents.replay
            contents.replay = MarketUpdate()
            let visitedLog = log.map { log in
                log.take { slots in
                    // Repeats included: at most a few more buckets than the changed keys need.
                    if slots.count > 1 { update.quotes.reserveCapacity(update.quotes.count + slots.count) }
                    for slot in slots {
                        // Unfollowed since it was logged: not in `positions` any more.
                        guard let index = log.positions[ObjectIdentifier(slot)] else { continue }
                        contents.followed[index].slot.collect(since: &contents.followed[index].seen, into: &update)
                    }
                }
            } ?? false
            if !visitedLog {
                // Room for every changed slot at once: grown from empty, a batch of a few hundred quotes
                // (a frame's worth at 10,000 a second) resized the table eight times, hashing every key again.
                let changed = contents.followed.count { $0.slot.hasChanged(since: $0.seen) }
                if changed > 1 { update.quotes.reserveCapacity(update.quotes.count + changed) }
                for index in contents.followed.indices {
                    contents.followed[index].slot.collect(since: &contents.followed[index].seen, into: &update)
                }
            }
            board.collect(since: &contents.brokerSeen, into: &update)
            return update
        }
        return batch.isEmpty ? nil : batch
    }
}
