import Domain
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking

/// Builds Tradier's REST requests (reference §1). Pure: no I/O, so every header and query is testable.
/// Checks run in this order: base URL, credentials, then the endpoint's own inputs.
public struct TradierRequestFactory: Sendable {
    public static let brokerID = "tradier"
    public static let productionURL = URL(string: "https://api.tradier.com")!
    public static let sandboxURL = URL(string: "https://sandbox.tradier.com")!

    public let baseURL: Result<URL, RequestConstructionError>
    public let credentials: TradierCredentials
    public let userAgent: String

    public init(baseURL: Result<URL, RequestConstructionError>, credentials: TradierCredentials, userAgent: String = "commonbroker/0.1") {
        self.baseURL = baseURL
        self.credentials = credentials
        self.userAgent = userAgent
    }

    /// Said when Tradier rejects the token.
    public var credentialHint: String { "check \(credentials.tokenVariable)" }

    /// `GET /v1/markets/quotes?symbols=AAPL,BRK/B&greeks=false`. Symbols are normalised and put in
    /// Tradier's spelling (`TradierSymbol.wire`); the caller keeps lists short (the broker batches them).
    /// The body is read by `TradierQuotesDecoder`, the scanner with JSONDecoder's exact answers.
    public func quotes(_ symbols: [String]) -> Result<Request<TradierQuotesEnvelope>, RequestConstructionError> {
        Result { () throws(RequestConstructionError) in
            let base = try validBaseURL()
            let token = try requiredToken()
            guard !symbols.isEmpty else { throw .emptySymbolList }
            var wireSymbols: [String] = []
            for symbol in symbols {
                guard case .success(let normalized) = Symbol.normalize(symbol) else { throw .invalidSymbol(symbol) }
                wireSymbols.append(TradierSymbol.wire(normalized))
            }
            let query = [
                URLQueryItem(name: "symbols", value: wireSymbols.joined(separator: ",")),
                URLQueryItem(name: "greeks", value: "false"),
            ]
            let generic: Request<TradierQuotesEnvelope> = try request(base: base, path: "/v1/markets/quotes", query: query, token: token)
            return Request(urlRequest: generic.urlRequest, secretNames: generic.secretNames, credentialHint: generic.credentialHint) {
                response throws(BrokerError) in try TradierQuotesDecoder.decode(response)
            }
        }
    }

    /// `GET /v1/user/profile`: the user's name and accounts.
    public func profile() -> Result<Request<TradierProfileEnvelope>, RequestConstructionError> {
        Result { () throws(RequestConstructionError) in
            try request(base: validBaseURL(), path: "/v1/user/profile", query: [], token: try requiredToken())
        }
    }

    /// `GET /v1/accounts/{id}/balances`.
    public func balances(accountID: String) -> Result<Request<TradierBalancesEnvelope>, RequestConstructionError> {
        Result { () throws(RequestConstructionError) in
            let base = try validBaseURL()
            let token = try requiredToken()
            // Account numbers are alphanumeric; anything else would change the path, so it is escaped.
            var allowed = CharacterSet.urlPathAllowed
            allowed.remove(charactersIn: "/;")
            let escaped = accountID.addingPercentEncoding(withAllowedCharacters: allowed) ?? accountID
            return try request(base: base, path: "/v1/accounts/\(escaped)/balances", query: [], token: token)
        }
    }

    /// `POST /v1/markets/events/session` with an empty body: the id a market WebSocket needs, to be used
    /// within 5 minutes (reference §1.5). Its decoder never quotes the body, which holds the id.
    public func streamSession() -> Result<Request<TradierStreamSessionEnvelope>, RequestConstructionError> {
        Result { () throws(RequestConstructionError) in
            let base = try validBaseURL()
            let token = try requiredToken()
            let generic: Request<TradierStreamSessionEnvelope> = try request(
                base: base, path: "/v1/markets/events/session", query: [], token: token, method: "POST")
            return Request(urlRequest: generic.urlRequest, secretNames: generic.secretNames, credentialHint: generic.credentialHint) {
                response throws(BrokerError) in try Self.decodeStreamSession(response)
            }
        }
    }

    static func decodeStreamSession(_ response: HTTPResponse) throws(BrokerError) -> TradierStreamSessionEnvelope {
        if let message = TradierResponseDecoding.errorMessage(in: response) {
            throw .badResponse("\(brokerID): \(message)")
        }
        guard let envelope = try? JSONDecoder().decode(TradierStreamSessionEnvelope.self, from: response.body),
              !envelope.stream.sessionid.isEmpty
        else {
            throw .badResponse("\(brokerID): the stream session answer has no stream.sessionid (HTTP \(response.status), \(response.body.count) bytes)")
        }
        return envelope
    }

    private func validBaseURL() throws(RequestConstructionError) -> URL {
        try BrokerURL.validated(baseURL.get()).get()
    }

    private func requiredToken() throws(RequestConstructionError) -> String {
        guard let token = credentials.usableToken else {
            throw .missingCredential(broker: Self.brokerID, variable: credentials.tokenVariable)
        }
        return token
    }

    private func request<Response: Decodable & Sendable>(
        base: URL, path: String, query: [URLQueryItem], token: String, method: String = "GET"
    ) throws(RequestConstructionError) -> Request<Response> {
        var urlRequest = URLRequest(url: try BrokerURL.join(base: base, path: path, query: query).get())
        urlRequest.httpMethod = method
        if method == "POST" {
            // An empty POST: some clients must say so by hand (reference §1.1).
            urlRequest.httpBody = Data()
            urlRequest.setValue("0", forHTTPHeaderField: "Content-Length")
        }
        urlRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        // Without it Tradier answers XML (reference §1.1).
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        urlRequest.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        return Request(urlRequest: urlRequest, secretNames: ["Authorization"], credentialHint: credentialHint) { response throws(BrokerError) in
            try TradierResponseDecoding.decode(Response.self, from: response)
        }
    }
}
