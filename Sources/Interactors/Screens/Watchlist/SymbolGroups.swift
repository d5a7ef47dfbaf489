import Domain

/// Every broker's entry of each symbol, for the cross-broker figures: which bid is the best, which
/// broker is off. One group per symbol of the list, `brokers.count` entries each, in broker order, as
/// indexes into `QuoteStore.latest` (-1 where a broker has none). Flat, so a table reads a group without
/// hashing or copying.
public struct SymbolGroups: Sendable {
    public private(set) var brokers: [ServiceBranding]
    private var entries: [Int]
    /// Kept rather than divided out: the table asks for every row.
    public private(set) var count = 0

    public init(brokers: [ServiceBranding] = []) {
        self.brokers = brokers
        self.entries = []
    }

    /// Adds a group: one entry per broker, in broker order.
    public mutating func append(_ group: some Collection<Int>) {
        precondition(group.count == brokers.count, "a group has one entry per broker")
        entries.append(contentsOf: group)
        count += brokers.isEmpty ? 0 : 1
    }

    /// The entry of the broker at `broker` in `group`, -1 when it has none.
    public func entry(group: Int, broker: Int) -> Int {
        entries[group * brokers.count + broker]
    }
}
