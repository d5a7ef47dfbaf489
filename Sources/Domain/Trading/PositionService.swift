/// Open positions, for brokers whose API lists them (Alpaca `GET /v2/positions`, Tradier
/// `GET /v1/accounts/{id}/positions`, the paper broker).
public protocol PositionService: BrandedService {
    /// Every open position, in no particular order; empty when there are none.
    func positions() async throws(BrokerError) -> [Position]
}
