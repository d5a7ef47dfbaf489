import Domain
import Foundation
import Networking
import TextSafety

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
            return Request(httpRequest: generic.httpRequest, secretNames: generic.secretNames, credentialHint: generic.credentialHint) {
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
            return Request(httpRequest: generic.httpRequest, secretNames: generic.secretNames, credentialHint: generic.credentialHint) {
                response throws(BrokerError) in try Self.decodeStreamSession(response)
            }
        }
    }

    /// `GET /v1/accounts/{id}/positions`.
    public func positions(accountID: String) -> Result<Request<TradierPositionsEnvelope>, RequestConstructionError> {
        Result { () throws(RequestConstructionError) in
            let base = try validBaseURL()
            let token = try requiredToken()
            return try request(base: base, path: try Self.accountPath(accountID) + "/positions", query: [], token: token)
        }
    }

    /// `GET /v1/accounts/{id}/orders?includeTags=true`: the account's orders of the current session (what
    /// Tradier lists without paging parameters), each with the `tag` it was placed with.
    public func orders(accountID: String) -> Result<Request<TradierOrdersEnvelope>, RequestConstructionError> {
        Result { () throws(RequestConstructionError) in
            let base = try validBaseURL()
            let token = try requiredToken()
            return try request(
                base: base, path: try Self.accountPath(accountID) + "/orders",
                query: [URLQueryItem(name: "includeTags", value: "true")], token: token)
        }
    }

    /// `GET /v1/accounts/{id}/orders/{order_id}?includeTags=true`: one order.
    public func order(accountID: String, id: OrderID) -> Result<Request<TradierOrderEnvelope>, RequestConstructionError> {
        Result { () throws(RequestConstructionError) in
            let base = try validBaseURL()
            let token = try requiredToken()
            return try request(
                base: base, path: try Self.orderPath(accountID: accountID, id: id),
                query: [URLQueryItem(name: "includeTags", value: "true")], token: token)
        }
    }

    /// `POST /v1/accounts/{id}/orders` with `TradierOrderForm.place`'s form.
    public func placeOrder(accountID: String, _ order: OrderRequest) -> Result<Request<TradierOrderAckEnvelope>, RequestConstructionError> {
        Result { () throws(RequestConstructionError) in
            let base = try validBaseURL()
            let token = try requiredToken()
            let form = try TradierOrderForm.place(order).get()
            return try orderChange(request(base: base, path: try Self.accountPath(accountID) + "/orders", query: [], token: token, method: "POST", form: form))
        }
    }

    /// `PUT /v1/accounts/{id}/orders/{order_id}` with `TradierOrderForm.modify`'s form.
    public func modifyOrder(accountID: String, id: OrderID, _ order: OrderRequest) -> Result<Request<TradierOrderAckEnvelope>, RequestConstructionError> {
        Result { () throws(RequestConstructionError) in
            let base = try validBaseURL()
            let token = try requiredToken()
            return try orderChange(request(
                base: base, path: try Self.orderPath(accountID: accountID, id: id), query: [], token: token, method: "PUT",
                form: TradierOrderForm.modify(order)))
        }
    }

    /// `DELETE /v1/accounts/{id}/orders/{order_id}`.
    public func cancelOrder(accountID: String, id: OrderID) -> Result<Request<TradierOrderAckEnvelope>, RequestConstructionError> {
        Result { () throws(RequestConstructionError) in
            let base = try validBaseURL()
            let token = try requiredToken()
            return try orderChange(request(base: base, path: try Self.orderPath(accountID: accountID, id: id), query: [], token: token, method: "DELETE"))
        }
    }

    /// `request` reading its 200 as an answer to an order change: an `errors` body inside it is the order
    /// refused (reference §1.4: downstream systems report problems as `errors` with HTTP 200).
    private func orderChange(_ request: Request<TradierOrderAckEnvelope>) -> Request<TradierOrderAckEnvelope> {
        Request(httpRequest: request.httpRequest, secretNames: request.secretNames, credentialHint: request.credentialHint) {
            response throws(BrokerError) in
            if let message = TradierResponseDecoding.errorMessage(in: response) { throw TradierExchange.orderRefusal(message) }
            return try WireDecoding.decode(TradierOrderAckEnvelope.self, from: response, broker: Self.brokerID)
        }
    }

    /// `/v1/accounts/{id}`, the id percent-encoded; an empty id, `.` or `..` is refused.
    static func accountPath(_ accountID: String) throws(RequestConstructionError) -> String {
        guard let segment = BrokerURL.pathSegment(accountID) else {
            throw .invalidOrder(reason: "account \"\(VisibleText.escaped(String(accountID.prefix(40))))\" is not a Tradier account number")
        }
        return "/v1/accounts/" + segment
    }

    /// `/v1/accounts/{id}/orders/{order_id}`. An empty order id is refused: the path would name the
    /// account's order list.
    static func orderPath(accountID: String, id: OrderID) throws(RequestConstructionError) -> String {
        guard let segment = BrokerURL.pathSegment(id.rawValue) else {
            throw .invalidOrder(reason: "order id \"\(VisibleText.escaped(String(id.rawValue.prefix(40))))\" is not one Tradier issued")
        }
        return try accountPath(accountID) + "/orders/" + segment
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

    /// `form`, when given, is the body, sent as `application/x-www-form-urlencoded` (reference §1.1).
    private func request<Response: Decodable & Sendable>(
        base: URL, path: String, query: [URLQueryItem], token: String, method: String = "GET", form: Data? = nil
    ) throws(RequestConstructionError) -> Request<Response> {
        var httpRequest = HTTPRequest(url: try BrokerURL.join(base: base, path: path, query: query).get(), method: method)
        if let form {
            httpRequest.body = form
            httpRequest.headerFields["Content-Type"] = "application/x-www-form-urlencoded"
        } else if method == "POST" {
            // An empty POST: some clients must say so by hand (reference §1.1).
            httpRequest.body = Data()
            httpRequest.headerFields["Content-Length"] = "0"
        }
        httpRequest.headerFields["Authorization"] = "Bearer \(token)"
        // Without it Tradier answers XML (reference §1.1).
        httpRequest.headerFields["Accept"] = "application/json"
        httpRequest.headerFields["User-Agent"] = userAgent
        return Request(httpRequest: httpRequest, secretNames: ["Authorization"], credentialHint: credentialHint) { response throws(BrokerError) in
            try TradierResponseDecoding.decode(Response.self, from: response)
        }
    }
}
