/// Request/response quotes from one broker.
public protocol QuoteService: BrandedService {
    func quote(for symbol: String) async throws(BrokerError) -> CommonQuote
    /// Quotes for many symbols. Symbols the broker does not know come back as
    /// `.failure(.unknownSymbol)` in the result, never as a thrown error for the whole batch.
    /// A thrown error means the whole request failed.
    func quotes(for symbols: [String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>]
}

extension QuoteService {
    public func quote(for symbol: String) async throws(BrokerError) -> CommonQuote {
        let results = try await quotes(for: [symbol])
        guard let result = results[symbol] else { throw .unknownSymbol(symbol) }
        return try result.get()
    }
}
