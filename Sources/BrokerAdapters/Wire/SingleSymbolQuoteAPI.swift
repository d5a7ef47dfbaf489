import Domain
import Networking

/// A quote API that answers one symbol per request and has no "who am I" endpoint (Finnhub's quote,
/// Polygon's single-ticker snapshot): quotes fan out through `PerSymbolQuotes`, every request through the
/// broker's `gate`, and quoting one symbol is how a key is validated. The broker supplies its requests and
/// its mapping of answers.
struct SingleSymbolQuoteAPI<Response: Sendable>: Sendable {
    /// Names the broker in errors.
    let brokerID: String
    let maxRequestsInFlight: Int
    /// Said when the broker rejects the key.
    let credentialHint: String
    let servicer: any RequestServicer
    /// The broker's rate limit and 429 pause, shared with every other caller of the broker.
    let gate: BrokerRequestGate
    /// The request for one canonical symbol.
    let request: @Sendable (String) -> Result<Request<Response>, RequestConstructionError>
    /// The error an answer for `symbol` means, if any, before its body is decoded.
    let error: @Sendable (_ response: HTTPResponse, _ symbol: String, _ credentialHint: String) -> BrokerError?
    /// The row a decoded answer for `symbol` makes; throws when the body does not have the documented
    /// shape, which fails the request rather than the row.
    let quote: @Sendable (_ response: Response, _ symbol: String) throws(BrokerError) -> Result<CommonQuote, BrokerError>

    /// One request per distinct symbol. Only the broker's explicit word about a symbol (unknown, not
    /// entitled) stays on its row; a failed request (429, 5xx, network, a rejected or missing key, a body
    /// that cannot be read) throws for the whole call, and the symbols not yet sent are not sent.
    func quotes(for symbols: [String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        try await PerSymbolQuotes.collect(
            symbols, maxInFlight: maxRequestsInFlight,
            request: request,
            fetch: { request, symbol throws(BrokerError) in
                try await gate.perform { () async throws(BrokerError) in try await fetch(request, symbol: symbol) }
            }
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

    /// The broker's answer about `symbol`, or a throw when the request failed. A status error is the row's
    /// only when it is a permanent verdict about the symbol (unknown, a plan without it); a rejected key
    /// is about every symbol, and anything else passes.
    private func fetch(_ request: Request<Response>, symbol: String) async throws(BrokerError) -> Result<CommonQuote, BrokerError> {
        let response = try await servicer.send(request.httpRequest, secretNames: request.secretNames)
        if let error = error(response, symbol, request.credentialHint) {
            guard error.isPermanent, error != .unauthorized(hint: request.credentialHint) else { throw error }
            return .failure(error)
        }
        return try quote(try request.decode(response), symbol)
    }
}
