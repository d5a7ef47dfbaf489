/// The body of `GET /v1/accounts/{id}/balances` (reference §1.6). The sub-object depends on
/// `account_type`: `margin`, `cash` or `pdt` (margin's fields without `sweep`). Money is read exactly
/// (`FlexibleExactDecimal`): Tradier prints JSON numbers, some with long tails such as
/// `17798.360000000000000000000`, whose digits are kept without a detour through `Double`.
public struct TradierBalancesEnvelope: Decodable, Sendable {
    public var balances: Balances

    public struct Balances: Decodable, Sendable {
        public var accountNumber: String?
        public var accountType: String?
        public var totalEquity: FlexibleExactDecimal?
        public var totalCash: FlexibleExactDecimal?
        public var marketValue: FlexibleExactDecimal?
        public var longMarketValue: FlexibleExactDecimal?
        public var shortMarketValue: FlexibleExactDecimal?
        public var openProfitLoss: FlexibleExactDecimal?
        public var closeProfitLoss: FlexibleExactDecimal?
        public var pendingCash: FlexibleExactDecimal?
        public var unclearedFunds: FlexibleExactDecimal?
        public var margin: MarginBalances?
        public var cash: CashBalances?
        public var patternDayTrader: MarginBalances?

        enum CodingKeys: String, CodingKey {
            case margin, cash
            case accountNumber = "account_number"
            case accountType = "account_type"
            case totalEquity = "total_equity"
            case totalCash = "total_cash"
            case marketValue = "market_value"
            case longMarketValue = "long_market_value"
            case shortMarketValue = "short_market_value"
            case openProfitLoss = "open_pl"
            case closeProfitLoss = "close_pl"
            case pendingCash = "pending_cash"
            case unclearedFunds = "uncleared_funds"
            case patternDayTrader = "pdt"
        }
    }

    public struct MarginBalances: Decodable, Sendable {
        public var fedCall: FlexibleExactDecimal?
        public var maintenanceCall: FlexibleExactDecimal?
        public var optionBuyingPower: FlexibleExactDecimal?
        public var stockBuyingPower: FlexibleExactDecimal?
        public var stockShortValue: FlexibleExactDecimal?
        public var sweep: FlexibleExactDecimal?

        enum CodingKeys: String, CodingKey {
            case sweep
            case fedCall = "fed_call"
            case maintenanceCall = "maintenance_call"
            case optionBuyingPower = "option_buying_power"
            case stockBuyingPower = "stock_buying_power"
            case stockShortValue = "stock_short_value"
        }
    }

    public struct CashBalances: Decodable, Sendable {
        public var cashAvailable: FlexibleExactDecimal?
        public var sweep: FlexibleExactDecimal?
        public var unsettledFunds: FlexibleExactDecimal?

        enum CodingKeys: String, CodingKey {
            case sweep
            case cashAvailable = "cash_available"
            case unsettledFunds = "unsettled_funds"
        }
    }
}
