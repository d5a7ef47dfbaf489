import Domain
import Locking

/// The hub's side of a `MarketFeedGroup`: one `SubscriberMailbox` for the whole group, its roster, and
/// the replays owed to members that joined symbols the group already followed.
///
/// The hub sees the group as one subscriber following the union of its members' symbols, so a quote
/// costs one slot write and one `signal(changed:)` whatever the number of members, and the group's consumer
/// one wake-up per batch. On that wake-up the group calls every member that follows a changed key, in
/// place, on the consumer's task: a delivery to a member is a closure call, not a task switch.
final class GroupMailbox: Sendable {
    let mailbox: SubscriberMailbox
    let hub: MarketDataHub
    private let roster = Locked(GroupRoster<MarketFeedGroupMember>())
    /// Cached values owed to single members, delivered before the batch of the same wake-up: a replay is
    /// taken before the batch, so a newer change always reaches the member after it, never before.
    private let replays = Locked<[(member: MarketFeedGroupMember, update: MarketUpdate)]>([])

    init(mailbox: SubscriberMailbox, hub: MarketDataHub) {
        self.mailbox = mailbox
        self.hub = hub
    }

    var id: Int { mailbox.id }

    /// The symbols the group asks the hub for.
    var symbols: Set<String> { roster.withLock { $0.symbols } }

    /// See `GroupRoster.setSymbols`; called on the hub.
    func setSymbols(_ symbols: Set<String>, of member: MarketFeedGroupMember) -> GroupRoster<MarketFeedGroupMember>.Change {
        roster.withLock { $0.setSymbols(symbols, of: member) }
    }

    /// `update` goes to `member` alone, on the group's next wake-up.
    func owe(_ update: MarketUpdate, to member: MarketFeedGroupMember) {
        replays.withLock { $0.append((member, update)) }
        mailbox.signalOutsideSlots()
    }

    /// The group has ended: no member is called again. Breaks the roster's references to the members,
    /// which hold this mailbox.
    func dissolve() {
        for member in roster.withLock({ $0.removeAll() }) { member.deactivate() }
        replays.withLock { $0 = [] }
    }

    /// One wake-up of the group's consumer: the members' replays, then the batch, each member called
    /// with the changes of the symbols it follows. Returns everything handed to members (the union of
    /// their symbols, broker states included) for the consumer itself, or nil once the group has ended.
    @inline(__always)
    func nextBatch(
        isolation actor: isolated (any Actor)?, consumerLeft: @escaping @Sendable () -> Void
    ) async -> MarketUpdate? {
        while await mailbox.waitUntilOwed(isolation: actor, consumerLeft: consumerLeft) {
            let owed = replays.withLock { replays in
                defer { replays = [] }
                return replays
            }
            let batch = mailbox.takeBatch()
            guard !owed.isEmpty else {
                guard let batch else { continue }
                fanOut(batch)
                return batch
            }
            // A replay carries the hub's cached values, which the consumer has seen already; they join its
            // batch so that it holds whatever its members were handed, the batch's newer values winning.
            var combined = MarketUpdate()
            for (member, update) in owed {
                member.deliver(update)
                combined.quotes.merge(update.quotes) { _, newer in newer }
                combined.failures.merge(update.failures) { _, newer in newer }
            }
            if let batch {
                fanOut(batch)
                combined.quotes.merge(batch.quotes) { _, newer in newer }
                combined.failures.merge(batch.failures) { _, newer in newer }
                combined.brokerStates = batch.brokerStates
                combined.skippedFrames = batch.skippedFrames
            }
            if !combined.isEmpty { return combined }
        }
        return nil
    }

    private func fanOut(_ batch: MarketUpdate) {
        // A copy (a retain): the hub may add or remove members meanwhile without waiting for the calls,
        // and a member that left since is skipped by its own flag.
        let followers = roster.withLock { $0.followers }
        // Failures first: a key with both in one batch ends on the quote, as `QuoteStore.apply` does.
        // Each change is made once and lent to every member: a copy of the quote per member was a
        // third of the fan-out's instructions.
        for (key, failure) in batch.failures {
            guard let members = followers[key.symbol] else { continue }
            let change = Result<CommonQuote, BrokerError>.failure(failure)
            for member in members { member.receive(key, change) }
        }
        for (key, quote) in batch.quotes {
            guard let members = followers[key.symbol] else { continue }
            let change = Result<CommonQuote, BrokerError>.success(quote)
            for member in members { member.receive(key, change) }
        }
    }
}
