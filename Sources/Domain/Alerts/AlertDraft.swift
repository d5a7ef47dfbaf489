/// An alert as the user asked for it, before the book gives it an id and a creation date.
public struct AlertDraft: Sendable, Hashable {
    public var symbol: String
    public var condition: AlertCondition
    public var scope: AlertBrokerScope
    public var rearm: AlertRearm

    public init(symbol: String, condition: AlertCondition, scope: AlertBrokerScope, rearm: AlertRearm) {
        self.symbol = symbol
        self.condition = condition
        self.scope = scope
        self.rearm = rearm
    }
}
