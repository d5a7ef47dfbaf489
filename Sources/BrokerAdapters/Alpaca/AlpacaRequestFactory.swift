import Domain
import Foundation
import Networking
import TextSafety

/// Builds Alpaca requests; pure. Market data and accounts live on two hosts: the Market Data API
/// (`data.alpaca.markets`) and the Trading API (`api.alpaca.markets`, paper `paper-api.alpaca.markets`).
/// `ServiceContext` overrides one base URL per id, so data uses `alpaca` and trading `alpaca-trading`.
public struct AlpacaRequestFactory: Sendable {
    public static let dataBrokerID = "alpaca"
    public static let tradingBrokerID = "alpaca-trading"
    public static let dataProductionURL = URL(string: "https://data.alpaca.markets")!
    public static let dataSandboxURL = URL(string: "https://data.sandbox.alpaca.markets")!
    public static let tradingProductionURL = URL(string: "https://api.alpaca.markets")!
    public static let tradingPaperURL = URL(string: "https://paper-api.alpaca.markets")!

    static let keyIDHeader = "APCA-API-KEY-ID"
    static let secretKeyHeader = "APCA-API-SECRET-KEY"

    public let dataBaseURL: Result<URL, RequestConstructionError>
    public let tradingBaseURL: Result<URL, RequestConstructionError>
    public let credentials: AlpacaCredentials
    public let userAgent: String

    /// Base URLs are scheme + host (+ port, + an optional path prefix); endpoint paths are added here.
    public init(
        baseURL: Result<URL, RequestConstructionError>, tradingBaseURL: Result<URL, RequestConstructionError>,
        credentials: AlpacaCredentials, userAgent: String = "commonbroker/0.1"
    ) {
        self.dataBaseURL = baseURL
        self.tradingBaseURL = tradingBaseURL
        self.credentials = credentials
        self.userAgent = userAgent
    }

    /// The URLs `context` chooses: its overrides, else production or sandbox (paper trading).
    public init(context: ServiceContext, credentials: AlpacaCredentials) {
        self.init(
            baseURL: context.baseURL(for: Self.dataBrokerID, production: Self.dataProductionURL, sandbox: Self.dataSandboxURL),
            tradingBaseURL: context.baseURL(for: Self.tradingBrokerID, production: Self.tradingProductionURL, sandbox: Self.tradingPaperURL),
            credentials: credentials, userAgent: context.userAgent
        )
    }

    /// `GET /v2/stocks/snapshots?symbols=AAPL,MSFT&feed=iex`. Symbols are normalized (upper case); Alpaca
    /// spells class shares with a dot (`BRK.B`), as users do, so no mapping is needed. Duplicates are sent
    /// once, in first-seen order.
    public func snapshots(_ symbols: [String]) -> Result<Request<AlpacaSnapshots>, RequestConstructionError> {
        guard !symbols.isEmpty else { return .failure(.emptySymbolList) }
        var normalized: [String] = []
        for symbol in symbols {
            switch Symbol.normalize(symbol) {
            case .success(let canonical): if !normalized.contains(canonical) { normalized.append(canonical) }
            case .failure: return .failure(.invalidSymbol(symbol))
            }
        }
        var query = [URLQueryItem(name: "symbols", value: normalized.joined(separator: ","))]
        // No feed means Alpaca's default for the plan: `sip` when paid, `iex` otherwise (reference §3.1).
        if !credentials.feed.isEmpty { query.append(URLQueryItem(name: "feed", value: credentials.feed)) }
        let secrets = credentials.secretValues
        return request(base: dataBaseURL, path: "/v2/stocks/snapshots", query: query) { response throws(BrokerError) in
            let snapshots: AlpacaSnapshots = try Self.decodeJSON(response, what: "snapshots", secrets: secrets)
            if let message = snapshots.message {
                throw .badResponse("alpaca: \(AlpacaErrorMapping.excerpt(AlpacaSecretScrubber.scrub(message, secrets: secrets)))")
            }
            return snapshots
        }
    }

    /// `GET /v2/account` on the trading API.
    public func account() -> Result<Request<AlpacaAccount>, RequestConstructionError> {
        let secrets = credentials.secretValues
        return request(base: tradingBaseURL, path: "/v2/account", query: []) { response throws(BrokerError) in
            try Self.decodeJSON(response, what: "account", secrets: secrets)
        }
    }

    /// `GET /v2/positions` on the trading API: every open position.
    public func positions() -> Result<Request<[AlpacaPosition]>, RequestConstructionError> {
        request(base: tradingBaseURL, path: "/v2/positions", query: []) { response throws(BrokerError) in
            try WireDecoding.decode([AlpacaPosition].self, from: response, broker: Self.dataBrokerID)
        }
    }

    /// Orders Alpaca returns at most per request ("Defaults to 50 and max is 500", its orders docs).
    public static let ordersPerRequest = 500

    /// `GET /v2/orders?status=open&limit=500&direction=desc`: the newest 500 orders of the group.
    public func orders(status: OrderStatusFilter) -> Result<Request<[AlpacaOrder]>, RequestConstructionError> {
        let query = [
            URLQueryItem(name: "status", value: status.rawValue),
            URLQueryItem(name: "limit", value: String(Self.ordersPerRequest)),
            URLQueryItem(name: "direction", value: "desc"),
        ]
        return request(base: tradingBaseURL, path: "/v2/orders", query: query) { response throws(BrokerError) in
            try WireDecoding.decode([AlpacaOrder].self, from: response, broker: Self.dataBrokerID)
        }
    }

    /// `POST /v2/orders` with `AlpacaOrderBody.place`'s JSON; the answer is the order as Alpaca took it.
    public func placeOrder(_ order: OrderRequest) -> Result<Request<AlpacaOrder>, RequestConstructionError> {
        AlpacaOrderBody.place(order).flatMap { body in
            request(base: tradingBaseURL, path: "/v2/orders", query: [], method: "POST", body: body) { response throws(BrokerError) in
                try WireDecoding.decode(AlpacaOrder.self, from: response, broker: Self.dataBrokerID)
            }
        }
    }

    /// `PATCH /v2/orders/{id}` with `AlpacaOrderBody.replace`'s JSON; the answer is the new order, which
    /// has its own id (the old one becomes `replaced`).
    public func replaceOrder(_ id: OrderID, with order: OrderRequest) -> Result<Request<AlpacaOrder>, RequestConstructionError> {
        Self.orderPath(id).flatMap { path in
            AlpacaOrderBody.replace(order).flatMap { body in
                request(base: tradingBaseURL, path: path, query: [], method: "PATCH", body: body) { response throws(BrokerError) in
                    try WireDecoding.decode(AlpacaOrder.self, from: response, broker: Self.dataBrokerID)
                }
            }
        }
    }

    /// `DELETE /v2/orders/{id}`: 204 with no body once Alpaca has taken the cancel request.
    public func cancelOrder(_ id: OrderID) -> Result<Request<Void>, RequestConstructionError> {
        Self.orderPath(id).flatMap { path in
            request(base: tradingBaseURL, path: path, query: [], method: "DELETE") { _ throws(BrokerError) in }
        }
    }

    /// `/v2/orders/{id}`, the id percent-encoded. An empty id, `.` or `..` is refused: `DELETE /v2/orders`
    /// itself cancels every open order of the account.
    static func orderPath(_ id: OrderID) -> Result<String, RequestConstructionError> {
        guard let segment = BrokerURL.pathSegment(id.rawValue) else {
            return .failure(.invalidOrder(reason: "order id \"\(VisibleText.escaped(String(id.rawValue.prefix(60))))\" is not one Alpaca issued"))
        }
        return .success("/v2/orders/" + segment)
    }

    private func request<T>(
        base baseURL: Result<URL, RequestConstructionError>, path: String, query: [URLQueryItem],
        method: String = "GET", body: Data? = nil,
        decode: @escaping @Sendable (HTTPResponse) throws(BrokerError) -> T
    ) -> Result<Request<T>, RequestConstructionError> {
        let base: URL
        switch baseURL {
        case .success(let url): base = url
        case .failure(let error): return .failure(error)
        }
        guard let keyID = credentials.keyID, let secretKey = credentials.secretKey, credentials.missingVariable == nil else {
            return .failure(.missingCredential(broker: Self.dataBrokerID, variable: credentials.missingVariable ?? credentials.keyIDVariable))
        }
        let url: URL
        switch BrokerURL.join(base: base, path: path, query: query) {
        case .success(let joined): url = joined
        case .failure(let error): return .failure(error)
        }

        var httpRequest = HTTPRequest(url: url, method: method, headerFields: [
            "Accept": "application/json",
            Self.keyIDHeader: keyID,
            Self.secretKeyHeader: secretKey,
            "User-Agent": userAgent,
        ])
        if let body {
            httpRequest.body = body
            httpRequest.headerFields["Content-Type"] = "application/json"
        }
        return .success(Request(
            httpRequest: httpRequest, secretNames: [Self.keyIDHeader, Self.secretKeyHeader],
            credentialHint: credentials.credentialHint, decode: decode
        ))
    }

    /// Decodes a 2xx JSON body; anything else is `.badResponse` with a short, scrubbed excerpt.
    static func decodeJSON<T: Decodable>(_ response: HTTPResponse, what: String, secrets: [String]) throws(BrokerError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            let excerpt = response.body.isEmpty ? "empty body" : AlpacaSecretScrubber.scrub(response, secrets: secrets).bodyExcerpt(limit: 80)
            throw .badResponse("undecodable \(what) (HTTP \(response.status)): \(excerpt)")
        }
    }
}
