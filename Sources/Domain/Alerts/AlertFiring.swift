import Foundation

/// One time an alert fired: which alert (as it was set), on whose quote, at what price and when.
public struct AlertFiring: Sendable, Hashable {
    public var alert: Alert
    public var brokerID: String
    public var price: ExactDecimal
    /// When it fired (the time the quote was received, not the broker's timestamp).
    public var at: Date

    public init(alert: Alert, brokerID: String, price: ExactDecimal, at: Date) {
        self.alert = alert
        self.brokerID = brokerID
        self.price = price
        self.at = at
    }

    public var symbol: String { alert.symbol }
}
