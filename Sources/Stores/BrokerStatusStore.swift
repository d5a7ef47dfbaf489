import Domain

/// Connection state per broker, in the brokers' given order.
public struct BrokerStatusStore: Sendable {
    private let brokers: [ServiceBranding]
    private var states: [String: BrokerConnectionState]
    /// Frames each broker's stream skipped as undecodable (`MarketUpdate.skippedFrames`).
    private var skippedFrames: [String: Int] = [:]

    /// A broker listed twice (same id) appears once, at its first position.
    public init(brokers: [ServiceBranding], initial: BrokerConnectionState = .connecting) {
        var seen = Set<String>()
        self.brokers = brokers.filter { seen.insert($0.id).inserted }
        self.states = Dictionary(uniqueKeysWithValues: self.brokers.map { ($0.id, initial) })
    }

    public mutating func apply(_ update: MarketUpdate) {
        for (brokerID, state) in update.brokerStates {
            set(state, for: brokerID)
        }
        for (brokerID, count) in update.skippedFrames where states[brokerID] != nil {
            skippedFrames[brokerID] = count
        }
    }

    public func skippedFrameCount(for brokerID: String) -> Int {
        skippedFrames[brokerID, default: 0]
    }

    /// Ignores ids of brokers this store was not given: without a branding there is nothing to show.
    public mutating func set(_ state: BrokerConnectionState, for brokerID: String) {
        guard states[brokerID] != nil else { return }
        states[brokerID] = state
    }

    /// Every broker's state by id.
    public var statesByBroker: [String: BrokerConnectionState] { states }

    public func state(for brokerID: String) -> BrokerConnectionState? {
        states[brokerID]
    }

    public var statuses: [(branding: ServiceBranding, state: BrokerConnectionState)] {
        brokers.map { ($0, states[$0.id] ?? .connecting) }
    }
}
