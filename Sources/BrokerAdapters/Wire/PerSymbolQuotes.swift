import Domain
import Networking

/// Quotes from APIs without a batch endpoint (Finnhub's quote, Polygon's single-ticker snapshot): one
/// request per distinct symbol, at most `maxInFlight` at a time, a result per symbol as the user wrote it.
enum PerSymbolQuotes {
    /// - `request` builds the request for a canonical symbol. `.invalidSymbol` fails that symbol only; any
    ///   other construction error (missing key, bad base URL) fails the whole call before anything is sent.
    /// - `endsBatch` says a failure holds for every symbol (the key is rejected, the rate limit is hit):
    ///   symbols not yet sent then get that failure without spending more of the provider's quota.
    /// - `fetch` sends one request and maps its answer for the canonical symbol.
    ///
    /// Throws when every symbol that was sent failed with the same `.unauthorized`: that is a rejected key,
    /// not a bad row, and the footer should say so once. Throws `.cancelled` if the task was cancelled.
    static func collect<Pending: Sendable>(
        _ symbols: [String], maxInFlight: Int,
        request: (String) -> Result<Pending, RequestConstructionError>,
        endsBatch: (BrokerError) -> Bool,
        fetch: @escaping @Sendable (Pending, String) async -> Result<CommonQuote, BrokerError>
    ) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        let spellings = SymbolSpellings(symbols)
        var results = spellings.rejected

        var pending: [Sent<Pending>] = []
        for canonical in spellings.canonicalOrder {
            switch request(canonical) {
            case .success(let built): pending.append(Sent(canonical: canonical, request: built))
            case .failure(.invalidSymbol):
                for spelling in spellings.spellings(of: canonical) {
                    results[spelling] = .failure(.unknownSymbol(Symbol.printable(spelling)))
                }
            case .failure(let error): throw error.brokerError
            }
        }

        let answers = await BoundedConcurrency.results(for: pending, limit: maxInFlight, endsBatch: endsBatch) {
            sent throws(BrokerError) in
            try await fetch(sent.request, sent.canonical).get()
        }
        if Task.isCancelled { throw .cancelled }
        if let first = answers.first, case .failure(let error) = first, case .unauthorized = error,
           answers.allSatisfy({ $0 == .failure(error) }) {
            throw error
        }
        for (sent, answer) in zip(pending, answers) {
            for spelling in spellings.spellings(of: sent.canonical) {
                results[spelling] = answer
                    .map { quote in var quote = quote; quote.symbol = spelling; return quote }
                    .mapError { error in
                        if case .unknownSymbol = error { return .unknownSymbol(spelling) }
                        return error
                    }
            }
        }
        return results
    }

    /// A request built for one canonical symbol.
    private struct Sent<Pending: Sendable>: Sendable {
        let canonical: String
        let request: Pending
    }
}
