/// A conflated batch of market changes: the newest value per key since the previous batch.
public struct MarketUpdate: Sendable, Hashable {
    public var quotes: [QuoteKey: CommonQuote]
    /// Per-row failures, e.g. a symbol the broker does not know.
    public var failures: [QuoteKey: BrokerError]
    /// Connection state per broker id, only for brokers whose state changed (all of them in the first batch).
    public var brokerStates: [String: BrokerConnectionState]
    /// Frames skipped as undecodable so far, per broker id, only for brokers whose count changed.
    public var skippedFrames: [String: Int]

    public init(
        quotes: [QuoteKey: CommonQuote] = [:],
        failures: [QuoteKey: BrokerError] = [:],
        brokerStates: [String: BrokerConnectionState] = [:],
        skippedFrames: [String: Int] = [:]
    ) {
        self.quotes = quotes
        self.failures = failures
        self.brokerStates = brokerStates
        self.skippedFrames = skippedFrames
    }

    public var isEmpty: Bool { quotes.isEmpty && failures.isEmpty && brokerStates.isEmpty && skippedFrames.isEmpty }
}

/// A live subscription to a `MarketFeed`.
public struct MarketFeedSubscription: Sendable {
    /// Conflated batches. A slow reader skips intermediate values but always ends on the newest.
    /// The first batch replays what the feed has cached for the symbols. The stream finishes when
    /// `cancel` is called; cancelling the task that iterates it also ends the subscription.
    public let updates: MarketUpdates
    /// Replaces the followed symbols. Newly followed symbols replay from the cache at once.
    public let setSymbols: @Sendable (Set<String>) async -> Void
    public let cancel: @Sendable () async -> Void

    public init(
        updates: MarketUpdates,
        setSymbols: @escaping @Sendable (Set<String>) async -> Void,
        cancel: @escaping @Sendable () async -> Void
    ) {
        self.updates = updates
        self.setSymbols = setSymbols
        self.cancel = cancel
    }

    public init(
        updates: AsyncStream<MarketUpdate>,
        setSymbols: @escaping @Sendable (Set<String>) async -> Void,
        cancel: @escaping @Sendable () async -> Void
    ) {
        self.init(updates: MarketUpdates(updates), setSymbols: setSymbols, cancel: cancel)
    }
}

/// Live quotes for symbols across every broker the feed knows. `MarketDataHub` is the real one.
public protocol MarketFeed: Sendable {
    var brokers: [ServiceBranding] { get }
    func subscribe(symbols: Set<String>) async -> MarketFeedSubscription
    /// Asks every broker that answers requests for a snapshot of `symbols` now, rather than waiting for
    /// the stream or the next poll. Answers reach subscribers that follow them as updates like any other,
    /// one broker at a time as each answers; a quote older than the one the feed has is dropped, and a
    /// failure reaches only rows that have no price.
    func refresh(_ symbols: Set<String>) async
}
