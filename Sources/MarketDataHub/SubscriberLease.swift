import Domain

/// One subscriber's hold on the hub, shared by everything in its `MarketFeedSubscription`: its
/// `MarketUpdates` read through it, `setSymbols` and `cancel` go through it, and when the
/// consumer is gone without cancelling (its task cancelled, its stream dropped unread) it tells the
/// hub, once. One object instead of a closure context per closure, because a subscriber's fixed
/// cost is what a thousand single-symbol subscribers are made of.
///
/// The hub holds the mailbox, never the lease, so dropping the subscription releases the lease.
final class SubscriberLease: MarketUpdateSource {
    let mailbox: SubscriberMailbox
    let hub: MarketDataHub

    init(mailbox: SubscriberMailbox, hub: MarketDataHub) {
        self.mailbox = mailbox
        self.hub = hub
    }

    deinit {
        consumerLeft()
    }

    /// The consumer's batches: conflated, parked in the mailbox while nothing is owed.
    func nextUpdate(isolation actor: isolated (any Actor)?) async -> MarketUpdate? {
        // Like `AsyncStream`: a cancelled consumer gets nothing more, even what is owed.
        if Task.isCancelled {
            consumerLeft()
            return nil
        }
        return await mailbox.nextBatch(isolation: actor, consumerLeft: consumerLeft)
    }

    func consumerLeft() {
        guard mailbox.cancel() else { return }
        let (hub, id) = (hub, mailbox.id)
        Task { await hub.removeSubscriber(id) }
    }
}
