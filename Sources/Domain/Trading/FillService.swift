import Foundation

/// Executions, for brokers whose API reports them (Alpaca's account activities of type `FILL`, the
/// paper broker's ledger).
public protocol FillService: BrandedService {
    /// Fills at or after `since`, oldest first.
    func fills(since: Date) async throws(BrokerError) -> [Fill]
}
