import Domain
import Locking
import Synchronization

/// The newest quote and failure of one (broker, symbol) key, shared by every subscriber that follows
/// the key. Ingest writes here once per quote, whatever the number of subscribers; each subscriber
/// remembers the version it last took, so "changed since my last batch" costs no per-subscriber copy.
final class QuoteSlot: Sendable {
    let key: QuoteKey
    private let cell = Locked(Cell())
    /// `Cell.version`, readable without the lock: a subscriber following many keys checks each for a
    /// change on every batch, and most have none (100 lock round trips per batch were most of the CPU
    /// per delivery with 10 subscribers following 100 symbols each).
    private let published = Atomic<UInt64>(0)

    private struct Cell {
        var version: UInt64 = 0
        var quote: CommonQuote?
        var quoteVersion: UInt64 = 0
        var failure: BrokerError?
        var failureVersion: UInt64 = 0
    }

    init(key: QuoteKey) {
        self.key = key
    }

    var version: UInt64 { cell.withLock { $0.version } }

    /// A quote clears the key's failure: the broker is quoting it again.
    func store(_ quote: CommonQuote) {
        cell.withLock { cell in
            cell.version += 1
            cell.quote = quote
            cell.quoteVersion = cell.version
            if cell.failure != nil {
                cell.failure = nil
                cell.failureVersion = cell.version
            }
            publish(cell.version)
        }
    }

    func store(_ failure: BrokerError) {
        cell.withLock { cell in
            cell.version += 1
            cell.failure = failure
            cell.failureVersion = cell.version
            publish(cell.version)
        }
    }

    /// Sequentially consistent: see `SubscriberMailbox.signalOutsideSlots()`, which reads `pending` after this.
    private func publish(_ version: UInt64) {
        published.store(version, ordering: .sequentiallyConsistent)
    }

    /// Whether something was stored after version `seen`: what `collect` would add to.
    func hasChanged(since seen: UInt64) -> Bool {
        published.load(ordering: .sequentiallyConsistent) > seen
    }

    /// Adds what changed after version `seen` to `update` and advances `seen`.
    func collect(since seen: inout UInt64, into update: inout MarketUpdate) {
        guard hasChanged(since: seen) else { return }
        // Only copies under the lock: every follower of the key takes it at once after a quote, on
        // both cores, and a dictionary insert (an allocation) inside made them queue on it and sleep.
        let taken = cell.withLock { cell -> (quote: CommonQuote?, failure: BrokerError??)? in
            guard cell.version > seen else { return nil }
            let quote = cell.quoteVersion > seen ? cell.quote : nil
            // .some(nil) means a newer quote cleared the failure, which must also cancel a replayed one.
            let failure: BrokerError?? = cell.failureVersion > seen ? .some(cell.failure) : .none
            seen = cell.version
            return (quote, failure)
        }
        guard let taken else { return }
        if let quote = taken.quote { update.quotes[key] = quote }
        if case .some(let failure) = taken.failure { update.failures[key] = failure }
    }
}
