/// A broker account's headline figures, in dollars, exact as the broker printed them (nil where it sent none).
public struct AccountBalance: Sendable, Hashable, Codable {
    public var accountID: String
    public var cash: ExactDecimal?
    public var buyingPower: ExactDecimal?
    public var equity: ExactDecimal?

    public init(accountID: String, cash: ExactDecimal?, buyingPower: ExactDecimal?, equity: ExactDecimal?) {
        self.accountID = accountID
        self.cash = cash
        self.buyingPower = buyingPower
        self.equity = equity
    }
}

/// Accounts and balances, for brokers whose API offers them.
public protocol AccountService: BrandedService {
    func balances() async throws(BrokerError) -> [AccountBalance]
}

/// Who the credentials belong to, for brokers whose API can tell.
public protocol AuthService: BrandedService {
    /// Validates the configured credentials; returns a display name for the user or account.
    func validateCredentials() async throws(BrokerError) -> String
}
