import Domain

/// Subscribers that live in one task or actor, registered with the hub as one consumer: one mailbox
/// and one wake-up per batch for the whole group, however many members it has.
///
/// A `MarketFeedSubscription` costs its reader a task wake-up per batch (2–3 µs of CPU, about 8,500
/// instructions), so a quote followed by 1,000 subscribers costs 1,000 wake-ups, and the last of them
/// sees it milliseconds late. Members of a group cost a closure call each instead, made in place on
/// the task that iterates `updates`.
///
/// Each member follows its own symbols (`join`, `setSymbols`, `leave`) and the hub counts them: a
/// symbol is demanded from the upstream while at least one member follows it. Whoever owns the group
/// must iterate `updates` (one task, or an actor's method): every batch it yields has already been
/// handed to the members, and holds the union of their symbols plus broker states, for a store that
/// every member reads (the way the app's screens read one `QuoteStore`). Calling `cancel()`, dropping the
/// group, or cancelling the iterating task ends it, and with it every membership and its demand.
///
/// Keep `MarketFeedSubscription` for a subscriber that runs on its own (the paper broker, the bus):
/// it gets its own conflated sequence and needs no owner to drive it.
public final class MarketFeedGroup: MarketUpdateSource {
    let group: GroupMailbox

    init(group: GroupMailbox) {
        self.group = group
    }

    deinit {
        consumerLeft()
    }

    /// The group's batches, each after its members have been called with their part of it.
    public var updates: MarketUpdates { MarketUpdates(source: self) }

    /// A new member following `symbols`. `receive` is called on the task that iterates `updates`, once
    /// per changed key it follows in each batch (conflated: the newest value since the previous batch),
    /// starting with the values the hub already has; never after `leave()` has begun.
    public func join(
        symbols: Set<String>,
        receive: @escaping @Sendable (QuoteKey, Result<CommonQuote, BrokerError>) -> Void
    ) async -> MarketFeedGroupMember {
        let member = MarketFeedGroupMember(group: group, receive: receive)
        await group.hub.join(member, symbols: symbols)
        return member
    }

    /// Ends the group: every member leaves, the hub drops the group's demand, and `updates` finishes
    /// once it has yielded what was already owed.
    public func cancel() async {
        await group.hub.removeSubscriber(group.id)
    }

    public func nextUpdate(isolation actor: isolated (any Actor)?) async -> MarketUpdate? {
        if Task.isCancelled {
            consumerLeft()
            return nil
        }
        return await group.nextBatch(isolation: actor, consumerLeft: consumerLeft)
    }

    /// As `SubscriberLease.consumerLeft`: the owner's task was cancelled or the group dropped.
    private func consumerLeft() {
        guard group.mailbox.cancel() else { return }
        let (hub, id) = (group.hub, group.id)
        Task { await hub.removeSubscriber(id) }
    }
}
