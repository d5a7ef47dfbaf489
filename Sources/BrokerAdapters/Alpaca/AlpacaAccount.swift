import Domain

/// `GET /v2/account` on the trading API. The shape is from Alpaca's public Trading API docs (Account
/// object), not from the team's wire reference. Money fields are decimal JSON *strings* there
/// (`"cash":"131056.816"`); they are read exactly and leniently (`FlexibleExactDecimal`: number, numeric
/// string or null). Only the fields the app shows are decoded; the many others (`multiplier`,
/// `pattern_day_trader`, …) are ignored.
public struct AlpacaAccount: Decodable, Sendable, Hashable {
    public let id: String
    /// The human-facing number, e.g. `PA3X7NR2QYB5` (paper accounts start with `PA`).
    public let accountNumber: String?
    /// `ACTIVE`, `ONBOARDING`, `ACCOUNT_UPDATED`, …
    public let status: String?
    public let currency: String?
    public let cash: ExactDecimal?
    public let buyingPower: ExactDecimal?
    public let equity: ExactDecimal?
    public let portfolioValue: ExactDecimal?

    enum CodingKeys: String, CodingKey {
        case id, accountNumber = "account_number", status, currency, cash
        case buyingPower = "buying_power", equity, portfolioValue = "portfolio_value"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        accountNumber = try container.decodeIfPresent(String.self, forKey: .accountNumber)
        status = try container.decodeIfPresent(String.self, forKey: .status)
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
        cash = try container.decodeIfPresent(FlexibleExactDecimal.self, forKey: .cash)?.value
        buyingPower = try container.decodeIfPresent(FlexibleExactDecimal.self, forKey: .buyingPower)?.value
        equity = try container.decodeIfPresent(FlexibleExactDecimal.self, forKey: .equity)?.value
        portfolioValue = try container.decodeIfPresent(FlexibleExactDecimal.self, forKey: .portfolioValue)?.value
    }

    /// What the user knows the account by: the account number, else the id.
    public var displayName: String {
        guard let number = accountNumber, !number.isEmpty else { return id }
        return number
    }
}
