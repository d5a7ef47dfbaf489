import Domain
import Networking

/// Quotes from APIs without a batch endpoint (Finnhub's quote, Polygon's single-ticker snapshot): one
/// request per distinct symbol, at most `maxInFlight` at a time, a result per symbol as the user wrote it.
/// Used by both Finnhub and Polygon.
enum PerSymbolQuotes {
    /// A per-symbol broker's whole `quotes(for:)`: build each request, send it, map an error status with the
    /// broker's own rules, decode, and map the wire value to a quote. A rejected key or a rate limit ends the
    /// batch (see `collect`).
    static func quotes<Wire: Sendable>(
        for symbols: [String], maxInFlight: Int, credentialHint: String, servicer: any RequestServicer,
        request: (String) -> Result<Request<Wire>, RequestConstructionError>,
        error: @escaping @Sendable (_ response: HTTPResponse, _ symbol: String, _ credentialHint: String) -> BrokerError?,
        quote: @escaping @Sendable (_ wire: Wire, _ symbol: String) -> Result<CommonQuote, BrokerError>
    ) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        let rejectedKey = BrokerError.unauthorized(hint: credentialHint)
        return try await collect(
            symbols, maxInFlight: maxInFlight, request: request,
            endsBatch: { failure in
                if case .rateLimited = failure { return true }
                return failure == rejectedKey
            },
            fetch: { request, symbol in
                do throws(BrokerError) {
                    let response = try await servicer.send(request.urlRequest, secretNames: request.secretNames)
                    if let failure = error(response, symbol, request.credentialHint) { return .failure(failure) }
                    return quote(try request.decode(response), symbol)
                } catch {
                    return .failure(error)
                }
            }
        )
    }

    /// Credential check for brokers without a "who am I" endpoint: one quote of `symbol` proves the key
    /// (an unknown-symbol answer still means the key was accepted); the display name is the key's kind.
    static func validate(
        broker: String, symbol: String, displayName: String,
        quotes: ([String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>]
    ) async throws(BrokerError) -> String {
        switch try await quotes([symbol])[symbol] {
        case .success, .failure(.unknownSymbol): return displayName
        case .failure(let error): throw error
        case nil: throw .badResponse("\(broker): no answer for \(symbol)")
        }
    }

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
        var results: [String: Result<CommonQuote, BrokerError>] = [:]
        // "aapl" and "AAPL" are one request, answered under both spellings.
        var spellings: [String: [String]] = [:]
        var canonicalOrder: [String] = []
        for symbol in symbols where results[symbol] == nil {
            switch Symbol.normalize(symbol) {
            case .failure:
                results[symbol] = .failure(.unknownSymbol(Symbol.printable(symbol)))
            case .success(let canonical):
                if spellings[canonical] == nil { canonicalOrder.append(canonical) }
                if spellings[canonical]?.contains(symbol) != true { spellings[canonical, default: []].append(symbol) }
            }
        }

        var pending: [(canonical: String, request: Pending)] = []
        for canonical in canonicalOrder {
            switch request(canonical) {
            case .success(let built): pending.append((canonical, built))
            case .failure(.invalidSymbol):
                for spelling in spellings[canonical] ?? [] { results[spelling] = .failure(.unknownSymbol(Symbol.printable(spelling))) }
            case .failure(let error): throw error.brokerError
            }
        }

        let answers = await fanOut(pending, maxInFlight: max(1, maxInFlight), endsBatch: endsBatch, fetch: fetch)
        if Task.isCancelled { throw .cancelled }
        if let first = answers.values.first, case .failure(let error) = first, case .unauthorized = error,
           answers.values.allSatisfy({ $0 == .failure(error) }) {
            throw error
        }
        for (canonical, answer) in answers {
            for spelling in spellings[canonical] ?? [] {
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

    /// Keeps `maxInFlight` requests running: each answer starts the next request, unless an answer said
    /// the rest would fail the same way.
    private static func fanOut<Pending: Sendable>(
        _ pending: [(canonical: String, request: Pending)], maxInFlight: Int,
        endsBatch: (BrokerError) -> Bool,
        fetch: @escaping @Sendable (Pending, String) async -> Result<CommonQuote, BrokerError>
    ) async -> [String: Result<CommonQuote, BrokerError>] {
        var answers: [String: Result<CommonQuote, BrokerError>] = [:]
        var next = 0
        var batchFailure: BrokerError?
        await withTaskGroup(of: (String, Result<CommonQuote, BrokerError>).self) { group in
            func startNext() {
                let (canonical, request) = pending[next]
                next += 1
                group.addTask { (canonical, await fetch(request, canonical)) }
            }
            while next < pending.count, next < maxInFlight { startNext() }
            while let (canonical, answer) = await group.next() {
                answers[canonical] = answer
                if batchFailure == nil, case .failure(let error) = answer, endsBatch(error) { batchFailure = error }
                if batchFailure == nil, next < pending.count, !Task.isCancelled { startNext() }
            }
        }
        for (canonical, _) in pending[next...] {
            answers[canonical] = .failure(batchFailure ?? .cancelled)
        }
        return answers
    }
}
