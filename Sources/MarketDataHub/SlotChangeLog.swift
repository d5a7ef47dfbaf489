import Locking

/// The slots the hub stored since a mailbox's last batch, for a mailbox that follows many keys
/// (`SubscriberMailbox.changeLogThreshold`), so that its batch visits those and not every key: at 1,000
/// events a second on 800 rows, a batch every frame found 30 changed slots by loading the version of all
/// 800, scattered over the heap and cold by then, for a twelfth of the app's CPU.
///
/// Its own lock, held for an append (the hub) or a swap (the consumer), never while a batch visits its
/// slots: with the log under the mailbox's lock, the hub waited for every batch the consumer drained, as
/// it once did for a shared lock (100x10 max ingest 118k quotes/s, where the code before the log took
/// 0.75–1.04M on the same host).
///
/// `positions` and the batch's buffer belong to the consumer's side and are guarded by the owning
/// mailbox's `contents` lock, not this one (hence `@unchecked`): only `SubscriberMailbox` touches them,
/// holding it.
final class SlotChangeLog: @unchecked Sendable {
    private struct Entries {
        /// In the order stored; a slot stored twice in a row is logged once, other repeats are kept (a
        /// second visit finds nothing new).
        var slots: [QuoteSlot] = []
        /// More stores came than keys are followed, or the log has just started (stores before it are
        /// in no log): the next batch visits every key. A consumer that stopped reading holds no more
        /// than it follows.
        var overflowed = true
        var limit = 0
    }

    private let entries = Locked(Entries())
    /// Where each followed slot is in the mailbox's `followed`. Guarded by the mailbox's `contents`.
    var positions: [ObjectIdentifier: Int] = [:]
    /// The slots of the batch being taken, swapped with the log's. Guarded by the mailbox's `contents`.
    private var taken: [QuoteSlot] = []

    /// The hub stored `slot`. Called for every quote of every key followed: an append under a lock
    /// nobody holds for long.
    func append(_ slot: QuoteSlot) {
        entries.withLock { entries in
            guard !entries.overflowed, entries.slots.last !== slot else { return }
            if entries.slots.count < entries.limit {
                entries.slots.append(slot)
            } else {
                entries.overflowed = true
                entries.slots.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The number of keys followed, which bounds the log. The hub calls it after each follow and
    /// unfollow, holding the mailbox's `contents`.
    func setLimit(_ limit: Int) {
        entries.withLock { entries in
            entries.limit = limit
            // Fewer keys than entries: the entries of keys let go would only be skipped, and the slots
            // they hold would live until the next batch.
            if entries.slots.count > limit {
                entries.overflowed = true
                entries.slots = []
            }
        }
    }

    /// Takes the log: calls `visit` with the slots stored since the last take and returns true, or
    /// returns false when the log overflowed (visit every key instead). Holding the mailbox's `contents`.
    func take(_ visit: (borrowing [QuoteSlot]) -> Void) -> Bool {
        let overflowed = entries.withLock { entries in
            swap(&entries.slots, &taken)
            defer { entries.overflowed = false }
            return entries.overflowed
        }
        defer { taken.removeAll(keepingCapacity: true) }
        guard !overflowed else { return false }
        visit(taken)
        return true
    }
}
