import Domain

/// One broker's answer to a fan-out request.
public struct FanOutResult: Sendable {
    public var branding: ServiceBranding
    /// Per symbol. A request that failed as a whole gives every symbol that failure. A symbol the broker
    /// said nothing about is absent: silence is not a verdict (only the broker says a symbol is unknown).
    public var results: [String: Result<CommonQuote, BrokerError>]

    public init(branding: ServiceBranding, results: [String: Result<CommonQuote, BrokerError>]) {
        self.branding = branding
        self.results = results
    }
}

/// Asks every broker for the same symbols at once. Results arrive per broker as each one answers, so a
/// slow or failing broker neither delays nor hides the others. Each broker's requests go through its own
/// `BrokerRequestGate` (its rate limit and 429 pause), shared with the poller: this snapshot is part of
/// the broker's budget, not extra to it.
public enum QuoteFanOut {
    public static func fetch(_ symbols: [String], from services: [any QuoteService]) -> AsyncStream<FanOutResult> {
        AsyncStream { continuation in
            let task = Task {
                await withTaskGroup(of: FanOutResult.self) { group in
                    for service in services {
                        group.addTask { await ask(service, for: symbols) }
                    }
                    for await result in group {
                        continuation.yield(result)
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Every broker's answers, once all have answered (for `commonbroker print`).
    public static func fetchAll(_ symbols: [String], from services: [any QuoteService]) async -> [FanOutResult] {
        var all: [FanOutResult] = []
        for await result in fetch(symbols, from: services) { all.append(result) }
        return all
    }

    static func ask(_ service: any QuoteService, for symbols: [String]) async -> FanOutResult {
        var results: [String: Result<CommonQuote, BrokerError>] = [:]
        do {
            let answered = try await service.quotes(for: symbols)
            for symbol in symbols {
                if let result = answered[symbol] { results[symbol] = result }
            }
        } catch {
            for symbol in symbols { results[symbol] = .failure(error) }
        }
        return FanOutResult(branding: service.branding, results: results)
    }
}
