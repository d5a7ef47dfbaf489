import Domain
import Foundation
import Stores

/// What the positions screen shows, computed from the portfolio and the live quotes: each position
/// valued at the latest price, today's P&L from the previous close, totals, and each account's figures.
public struct PositionsSummary: Sendable, Hashable {
    public struct Line: Sendable, Hashable {
        public var branding: ServiceBranding
        public var position: Position
        /// Where the price came from: live from the quote stream, or the broker's own figure.
        public var isLive: Bool
    }

    public struct Totals: Sendable, Hashable {
        public var marketValue: ExactDecimal = 0
        public var unrealizedPnL: ExactDecimal = 0
        public var todayPnL: ExactDecimal?
        public var realizedPnL: ExactDecimal?
        public var costBasis: ExactDecimal = 0
        /// Unrealized P&L in percent of the cost basis' magnitude.
        public var unrealizedPnLPercent: ExactDecimal? {
            guard !costBasis.isZero else { return nil }
            return try? unrealizedPnL.multiplied(by: 100).divided(by: costBasis.magnitude, rounding: .toNearestOrEven)
        }
    }

    public struct Account: Sendable, Hashable {
        public var branding: ServiceBranding
        public var balance: AccountBalance
    }

    /// Today's P&L of a position: what it is worth now, less what the shares held at the close were worth
    /// then, less what today's buys cost, plus what today's sells brought. So shares bought today count
    /// from their fill price, not from yesterday's close. Nil when the arithmetic leaves the range.
    static func todayPnL(of position: Position, last: ExactDecimal, previousClose: ExactDecimal, todaysFills: [Order]) -> ExactDecimal? {
        do throws(ExactDecimal.ArithmeticError) {
            var heldAtClose = position.quantity
            var cashFlow: ExactDecimal = 0
            for order in todaysFills where !order.filledQuantity.isZero {
                guard let price = order.averageFillPrice else { continue }
                let signed = order.side.isBuy ? order.filledQuantity : -order.filledQuantity
                heldAtClose = try heldAtClose.subtracting(signed)
                cashFlow = try cashFlow.subtracting(try signed.multiplied(by: price))
            }
            let now = try position.quantity.multiplied(by: last)
            let then = try heldAtClose.multiplied(by: previousClose)
            return try now.subtracting(then).adding(cashFlow)
        } catch {
            return nil
        }
    }

    public var lines: [Line]
    public var totals: Totals
    public var accounts: [Account]
    /// Brokers that could not say, with why (outside text: escape before showing).
    public var problems: [(branding: ServiceBranding, reason: String)] {
        get { problemList.map { ($0.branding, $0.reason) } }
    }
    private var problemList: [Problem]
    public var isLoading: Bool

    private struct Problem: Sendable, Hashable {
        var branding: ServiceBranding
        var reason: String
    }

    /// `price(brokerID, symbol)` is the latest quote for a position at that broker, if the app has one.
    /// Trades filled since `todayStarted` count in today's P&L at their own prices, not the previous close.
    public init(portfolio: PortfolioStore, todayStarted: Date = .distantPast, price: (String, String) -> CommonQuote?) {
        var lines: [Line] = []
        var totals = Totals()
        var problems: [Problem] = []
        var accounts: [Account] = []
        for broker in portfolio.brokers {
            if let error = broker.error { problems.append(Problem(branding: broker.branding, reason: error)) }
            accounts += broker.balances.map { Account(branding: broker.branding, balance: $0) }
            for position in broker.positions.sorted(by: { $0.symbol < $1.symbol }) {
                var shown = position
                var isLive = false
                if let quote = price(position.brokerID, position.symbol), let valued = try? position.valued(at: quote.last) {
                    shown = valued
                    shown.realizedPnL = position.realizedPnL
                    isLive = true
                    if let close = quote.previousClose {
                        shown.todayPnL = Self.todayPnL(
                            of: position, last: quote.last, previousClose: close,
                            todaysFills: broker.orders.filter { $0.symbol == position.symbol && $0.updatedAt >= todayStarted })
                    }
                }
                lines.append(Line(branding: broker.branding, position: shown, isLive: isLive))
                totals.marketValue = (try? totals.marketValue.adding(shown.marketValue ?? 0)) ?? totals.marketValue
                totals.unrealizedPnL = (try? totals.unrealizedPnL.adding(shown.unrealizedPnL ?? 0)) ?? totals.unrealizedPnL
                totals.costBasis = (try? totals.costBasis.adding(shown.costBasis)) ?? totals.costBasis
                if let today = shown.todayPnL { totals.todayPnL = (try? (totals.todayPnL ?? 0).adding(today)) ?? totals.todayPnL }
                if let realized = shown.realizedPnL { totals.realizedPnL = (try? (totals.realizedPnL ?? 0).adding(realized)) ?? totals.realizedPnL }
            }
        }
        self.lines = lines
        self.totals = totals
        self.accounts = accounts
        self.problemList = problems
        self.isLoading = portfolio.brokers.contains { $0.isLoading && $0.snapshot == nil }
    }
}
