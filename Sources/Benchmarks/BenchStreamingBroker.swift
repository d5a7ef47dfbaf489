import Domain
import Locking

/// The one streaming broker `MarketDataHub` is given in a benchmark; each open hands out a fresh
/// `BenchQuoteSession` and keeps it for the producer.
final class BenchStreamingBroker: Sendable {
    let branding = ServiceBranding(id: "bench", name: "Bench", glyph: "b", color: .cyan)
    private let capacity: Int?
    private let latest = Locked<BenchQuoteSession?>(nil)

    init(capacity: Int?) {
        self.capacity = capacity
    }

    var service: AnyStreamingQuoteService {
        AnyStreamingQuoteService(branding: branding) { () async throws(BrokerError) -> any QuoteStreamSession in
            let session = BenchQuoteSession(capacity: self.capacity)
            self.latest.withLock { $0 = session }
            return session
        }
    }

    /// The open session once the hub has subscribed it to all of `symbols`; nil after `timeout`.
    func session(subscribedTo symbols: Set<String>, timeout: Duration = .seconds(5)) async -> BenchQuoteSession? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let session = latest.withLock({ $0 }), session.subscribedSymbols.isSuperset(of: symbols) {
                return session
            }
            try? await Task.sleep(for: .microseconds(200))
        }
        return nil
    }
}
