/// The body of `GET /v1/accounts/{id}/balances` (reference §1.6). The sub-object depends on
/// `account_type`: `margin`, `cash` or `pdt` (margin's fields without `sweep`).
public struct TradierBalancesEnvelope: Decodable, Sendable {
    public var balances: Balances

    public struct Balances: Decodable, Sendable {
        public var accountNumber: String?
        public var accountType: String?
        public var totalEquity: FlexibleDouble?
        public var totalCash: FlexibleDouble?
        public var marketValue: FlexibleDouble?
        public var longMarketValue: FlexibleDouble?
        public var shortMarketValue: FlexibleDouble?
        public var openProfitLoss: FlexibleDouble?
        public var closeProfitLoss: FlexibleDouble?
        public var pendingCash: FlexibleDouble?
        public var unclearedFunds: FlexibleDouble?
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
        public var fedCall: FlexibleDouble?
        public var maintenanceCall: FlexibleDouble?
        public var optionBuyingPower: FlexibleDouble?
        public var stockBuyingPower: FlexibleDouble?
        public var stockShortValue: FlexibleDouble?
        public var sweep: FlexibleDouble?

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
        public var cashAvailable: FlexibleDouble?
        public var sweep: FlexibleDouble?
        public var unsettledFunds: FlexibleDouble?

        enum CodingKeys: String, CodingKey {
            case sweep
            case cashAvailable = "cash_available"
            case unsettledFunds = "unsettled_funds"
        }
    }
}
