import Domain

/// One broker's answer to a fan-out request.
public struct FanOutResult: Sendable {
    public var branding: ServiceBranding
    /// Per symbol. A request that failed as a whole gives every symbol that failure.
    public var results: [String: Result<CommonQuote, BrokerError>]

    public init(branding: ServiceBranding, results: [String: Result<CommonQuote, BrokerError>]) {
        self.branding = branding
        self.results = results
    }
}

/// Asks every broker for the same symbols at once. Results arrive per broker as each one answers, so a
/// slow or failing broker neither delays nor hides the others.
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
                results[symbol] = answered[symbol] ?? .failure(.unknownSymbol(symbol))
            }
        } catch {
            for symbol in symbols { results[symbol] = .failure(error) }
        }
        return FanOutResult(branding: service.branding, results: results)
    }
}
