import Domain
import Foundation

/// The one cache of every trading broker's positions, orders and balances, fed by fetch results and by
/// the orders the app places. Screens read it; the app state's update alone writes it.
public struct PortfolioStore: Sendable, Hashable {
    /// In the order the brokers were configured.
    public private(set) var brokers: [BrokerPortfolio]

    public init(brokers: [ServiceBranding]) {
        self.brokers = brokers.map { BrokerPortfolio(branding: $0) }
    }

    public func portfolio(for brokerID: String) -> BrokerPortfolio? {
        brokers.first { $0.branding.id == brokerID }
    }

    /// Marks every broker as asked again.
    public mutating func beginLoading() {
        for index in brokers.indices { brokers[index].isLoading = true }
    }

    public mutating func apply(_ result: Result<PortfolioSnapshot, BrokerError>, for brokerID: String, at now: Date) {
        guard let index = brokers.firstIndex(where: { $0.branding.id == brokerID }) else { return }
        brokers[index].isLoading = false
        switch result {
        case .success(let snapshot):
            brokers[index].snapshot = snapshot
            brokers[index].error = nil
            brokers[index].updatedAt = now
        case .failure(let error):
            brokers[index].error = error.description
        }
    }

    /// An order the broker just accepted, changed or reported (a paper fill), ahead of the next fetch.
    public mutating func record(_ order: Order, for brokerID: String) {
        guard let index = brokers.firstIndex(where: { $0.branding.id == brokerID }) else { return }
        var snapshot = brokers[index].snapshot ?? PortfolioSnapshot()
        if let existing = snapshot.orders.firstIndex(where: { $0.id == order.id }) {
            snapshot.orders[existing] = order
        } else {
            snapshot.orders.insert(order, at: 0)
        }
        brokers[index].snapshot = snapshot
    }

    /// Symbols of every position and open order: the app follows them, so their prices are live.
    public var symbols: Set<String> {
        var symbols = Set<String>()
        for broker in brokers {
            for position in broker.positions { symbols.insert(position.symbol) }
            for order in broker.orders where order.status.isOpen { symbols.insert(order.symbol) }
        }
        return symbols
    }
}
