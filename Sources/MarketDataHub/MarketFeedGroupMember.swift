import Domain
import Synchronization

/// One member of a `MarketFeedGroup`: what it is called with. What it follows is in the group's roster.
///
/// A member stays until `leave()` or the end of its group: the group holds it, so dropping this handle
/// ends nothing. Small on purpose (138 bytes of heap for a member of one symbol in `make bench`, its
/// handler's context and its two places in the roster included): a thousand one-symbol members are what
/// the group exists for.
public final class MarketFeedGroupMember: Sendable {
    let group: GroupMailbox
    private let handler: @Sendable (QuoteKey, Result<CommonQuote, BrokerError>) -> Void
    /// Read on every call of the fan-out, so a flag rather than a lock.
    private let active = Atomic<Bool>(true)

    init(group: GroupMailbox, receive: @escaping @Sendable (QuoteKey, Result<CommonQuote, BrokerError>) -> Void) {
        self.group = group
        handler = receive
    }

    /// Replaces the symbols followed; newly followed ones start with the values the hub has.
    public func setSymbols(_ symbols: Set<String>) async {
        await group.hub.setSymbols(symbols, of: self)
    }

    /// Stops the calls at once, then gives the member's symbols back to the hub's demand.
    public func leave() async {
        deactivate()
        await group.hub.leave(self)
    }

    var isActive: Bool { active.load(ordering: .relaxed) }

    func deactivate() {
        active.store(false, ordering: .relaxed)
    }

    func receive(_ key: QuoteKey, _ change: Result<CommonQuote, BrokerError>) {
        guard active.load(ordering: .relaxed) else { return }
        handler(key, change)
    }

    /// A replay: every failure, then every quote (a key with both ends on the quote).
    func deliver(_ update: MarketUpdate) {
        for (key, failure) in update.failures { receive(key, .failure(failure)) }
        for (key, quote) in update.quotes { receive(key, .success(quote)) }
    }
}
