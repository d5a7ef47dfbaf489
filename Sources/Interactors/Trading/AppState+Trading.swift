import Domain
import Foundation
import Stores

/// The trading part of the update: the order ticket, the portfolio and what brokers do on their own.
/// The screens (`OrderTicket`, `PositionsScreen`, `OrdersScreen`) live in their own folders; this is what
/// only the app state can do for them.
extension AppState {
    func brokerName(_ id: String) -> String {
        settings.tradingBrokers.first { $0.branding.id == id }?.branding.name ?? id
    }

    /// Opens the ticket, at `brokerID` when it trades, else at the first trading broker (paper).
    mutating func openTicket(symbol: String, side: OrderSide, brokerID: String?, quantity: String, at now: Date) {
        ordersSent += 1
        let id = ClientOrderID("cb-\(Int64(now.timeIntervalSince1970 * 1000))-\(ordersSent)")
        guard let ticket = OrderTicket(
            symbol: symbol, side: side, brokers: settings.tradingBrokers, preferredBrokerID: brokerID, clientOrderID: id, quantity: quantity)
        else {
            say(.warning, "No broker takes orders: enable the paper broker (\"paper\": {\"enabled\": true}) or a broker with trading in the config", at: now)
            return
        }
        message = nil
        front = .ticket(ticket)
    }

    /// Asks every trading broker for its portfolio, unless none trades.
    mutating func askForPortfolio(at now: Date) -> [AppEffect] {
        guard !portfolio.brokers.isEmpty else { return [] }
        portfolio.beginLoading()
        portfolioAskedAt = now
        return [.fetchPortfolio]
    }

    /// Open trading screens show figures at most `portfolioRefresh` old.
    mutating func refreshPortfolioIfShown(at now: Date) -> [AppEffect] {
        switch front {
        case .positions, .orders:
            guard let asked = portfolioAskedAt, now.timeIntervalSince(asked) < settings.portfolioRefresh else {
                return askForPortfolio(at: now)
            }
            return []
        default:
            return []
        }
    }

    /// A fill, an expiry or a cancel the broker did on its own, said on the status line.
    mutating func announce(_ order: Order, at brokerID: String, at now: Date) {
        let name = brokerName(brokerID)
        switch order.status {
        case .filled, .partiallyFilled:
            say(.info, OrderTicket.describeFill(order, at: name), at: now)
        case .rejected(let reason):
            say(.warning, "\(name) rejected \(OrderTicket.describe(order.request)): \(reason)", at: now)
        case .pending, .accepted:
            // Placed (here, where the ticket said so, or in another window): the orders screen shows it.
            break
        case .cancelled, .expired, .replaced:
            say(.info, "\(name): \(OrderTicket.describe(order.request)) is \(order.status.name)", at: now)
        }
    }

    /// The latest quote for `symbol` as the broker `brokerID` would price it: its quote source's (the
    /// paper broker's source, a real broker's own stream), else the freshest any broker has.
    func livePrice(brokerID: String, symbol: String) -> CommonQuote? {
        let source = settings.tradingBrokers.first { $0.branding.id == brokerID }?.quoteSourceID ?? brokerID
        if let quote = quotes.entry(for: QuoteKey(brandID: source, symbol: symbol))?.quote { return quote }
        return brokers.compactMap { quotes.entry(for: QuoteKey(brandID: $0.id, symbol: symbol))?.quote }
            .max { $0.timestamp < $1.timestamp }
    }
}
