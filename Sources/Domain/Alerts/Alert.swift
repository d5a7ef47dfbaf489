import Foundation

/// A price alert on a symbol: the condition, whose quotes it watches, whether it rearms, and where it
/// stands (armed, or fired and when). A plain value; `AlertEvaluator` moves it along, `AlertBook`
/// holds the user's alerts.
public struct Alert: Sendable, Hashable, Identifiable {
    /// Unique within the book, never reused while the alert exists (`AlertBook.add` takes the next one).
    public var id: Int
    public var symbol: String
    public var condition: AlertCondition
    public var scope: AlertBrokerScope
    public var rearm: AlertRearm
    public var createdAt: Date
    /// False once fired: for good with `.once`, until the condition clears with `.whenCleared`.
    public var isArmed: Bool
    /// The last time it fired, nil before the first.
    public var lastFired: Fired?

    /// Where, at what price and when an alert last fired. A `.whenCleared` alert waits for this broker's
    /// price to clear the condition, so two brokers on either side of the line cannot make it flap.
    public struct Fired: Sendable, Hashable {
        public var at: Date
        public var brokerID: String
        public var price: ExactDecimal

        public init(at: Date, brokerID: String, price: ExactDecimal) {
            self.at = at
            self.brokerID = brokerID
            self.price = price
        }
    }

    public init(
        id: Int, symbol: String, condition: AlertCondition, scope: AlertBrokerScope, rearm: AlertRearm,
        createdAt: Date, isArmed: Bool = true, lastFired: Fired? = nil
    ) {
        self.id = id
        self.symbol = symbol
        self.condition = condition
        self.scope = scope
        self.rearm = rearm
        self.createdAt = createdAt
        self.isArmed = isArmed
        self.lastFired = lastFired
    }

    /// `AAPL > 190.5 · any broker · rearms`: one line for messages and notifications.
    public var summary: String {
        let broker = switch scope {
        case .any: "any broker"
        case .broker(let id): id
        }
        return "\(symbol) \(condition.summary) · \(broker)\(rearm == .whenCleared ? " · rearms" : "")"
    }
}
