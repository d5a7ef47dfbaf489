import Domain
import Networking

/// A quote API that answers one symbol per request and has no "who am I" endpoint (Finnhub's quote,
/// Polygon's single-ticker snapshot): quotes fan out through `PerSymbolQuotes`, and quoting one symbol is
/// how a key is validated. The broker supplies its requests and its mapping of answers.
struct SingleSymbolQuoteAPI<Response: Sendable>: Sendable {
    /// Names the broker in errors.
    let brokerID: String
    let maxRequestsInFlight: Int
    /// Said when the broker rejects the key.
    let credentialHint: String
    let servicer: any RequestServicer
    /// The request for one canonical symbol.
    let request: @Sendable (String) -> Result<Request<Response>, RequestConstructionError>
    /// The error an answer for `symbol` means, if any, before its body is decoded.
    let error: @Sendable (_ response: HTTPResponse, _ symbol: String, _ credentialHint: String) -> BrokerError?
    /// The row a decoded answer for `symbol` makes.
    let quote: @Sendable (_ response: Response, _ symbol: String) -> Result<CommonQuote, BrokerError>

    /// One request per distinct symbol. A rejected key (every symbol unauthorized) or a missing key
    /// throws, so the footer can say which variable to check; other failures stay on their rows. After a
    /// rejected key or a rate limit, the symbols not yet sent fail the same way instead of being sent.
    func quotes(for symbols: [String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        let rejectedKey = BrokerError.unauthorized(hint: credentialHint)
        return try await PerSymbolQuotes.collect(
            symbols, maxInFlight: maxRequestsInFlight,
            request: request,
            endsBatch: { error in
                if case .rateLimited = error { return true }
                return error == rejectedKey
            },
            fetch: { request, symbol in await fetch(request, symbol: symbol) }
        )
    }

    /// Quotes `symbol`, the cheapest call that proves the key: any answer about the symbol, even that it
    /// is unknown, means the key was accepted, and `keyName` is what the user is shown.
    func validateCredentials(quoting symbol: String, keyName: String) async throws(BrokerError) -> String {
        switch try await quotes(for: [symbol])[symbol] {
        case .success, .failure(.unknownSymbol): return keyName
        case .failure(let error): throw error
        case nil: throw .badResponse("\(brokerID): no answer for \(symbol)")
        }
    }

    private func fetch(_ request: Request<Response>, symbol: String) async -> Result<CommonQuote, BrokerError> {
        do throws(BrokerError) {
            let response = try await servicer.send(request.urlRequest, secretNames: request.secretNames)
            if let error = error(response, symbol, request.credentialHint) {
                return .failure(error)
            }
            return quote(try request.decode(response), symbol)
        } catch {
            return .failure(error)
        }
    }
}
