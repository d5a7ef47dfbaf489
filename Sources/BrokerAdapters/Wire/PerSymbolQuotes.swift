import Domain
import Networking
import TextSafety

/// Quotes from APIs without a batch endpoint (Finnhub's quote, Polygon's single-ticker snapshot): one
/// request per distinct symbol, at most `maxInFlight` at a time, a result per symbol as the user wrote it.
enum PerSymbolQuotes {
    /// - `request` builds the request for a canonical symbol. `.invalidSymbol` fails that symbol only; any
    ///   other construction error (missing key, bad base URL) fails the whole call before anything is sent.
    /// - `fetch` sends one request and returns the broker's answer about the canonical symbol (a quote, or
    ///   a verdict such as unknown or not entitled). It throws when the request failed instead: no answer,
    ///   a 429, a 5xx, a rejected key, a body that cannot be read.
    ///
    /// A failed request is the broker's failure, never a verdict on its symbol: the whole call throws it
    /// (a 429 first, since it carries the time to wait), and symbols not yet sent are not sent, so a rate
    /// limit or an outage spends no more of the provider's quota. Throws too when every symbol got the same
    /// `.unauthorized` verdict: that is a plan without the endpoint, and the footer should say so once.
    /// Throws `.cancelled` if the task was cancelled.
    static func collect<Pending: Sendable>(
        _ symbols: [String], maxInFlight: Int,
        request: (String) -> Result<Pending, RequestConstructionError>,
        fetch: @escaping @Sendable (Pending, String) async throws(BrokerError) -> Result<CommonQuote, BrokerError>
    ) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        let spellings = SymbolSpellings(symbols)
        var results = spellings.rejected

        var pending: [Sent<Pending>] = []
        for canonical in spellings.canonicalOrder {
            switch request(canonical) {
            case .success(let built): pending.append(Sent(canonical: canonical, request: built))
            case .failure(.invalidSymbol):
                for spelling in spellings.spellings(of: canonical) {
                    results[spelling] = .failure(.unknownSymbol(VisibleText.escaped(spelling)))
                }
            case .failure(let error): throw error.brokerError
            }
        }

        let outcomes = await BoundedConcurrency.results(for: pending, limit: maxInFlight, endsBatch: { _ in true }) {
            sent throws(BrokerError) in
            try await fetch(sent.request, sent.canonical)
        }
        if Task.isCancelled { throw .cancelled }
        if let failure = failedRequest(in: outcomes) { throw failure }
        let answers = outcomes.map { outcome in
            // Every outcome succeeded, or `failedRequest` would have thrown.
            (try? outcome.get()) ?? .failure(.cancelled)
        }
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

    /// The failure to throw for the call, if any request failed: a 429 (it says when to come back), else
    /// the first failure that is not the `.cancelled` of a request never sent.
    static func failedRequest<Output>(in outcomes: [Result<Output, BrokerError>]) -> BrokerError? {
        var chosen: BrokerError?
        for case .failure(let error) in outcomes {
            if case .rateLimited = error { return error }
            if chosen == nil || chosen == .cancelled { chosen = error }
        }
        return chosen
    }

    /// A request built for one canonical symbol.
    private struct Sent<Pending: Sendable>: Sendable {
        let canonical: String
        let request: Pending
    }
}
