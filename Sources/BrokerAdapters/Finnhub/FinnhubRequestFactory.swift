import Domain
import Foundation
import Networking

/// Builds Finnhub REST requests. Pure: no I/O, the same inputs give the same request.
public struct FinnhubRequestFactory: Sendable {
    public static let brokerID = "finnhub"
    /// Finnhub accepts the key as `?token=` or as this header (reference §4.1). We send the header so that
    /// URLs, which end up in logs and recordings more easily than headers, never carry the key.
    public static let tokenHeader = "X-Finnhub-Token"
    /// Finnhub's query form of the key. We never send it; it is listed as a secret so a base URL or a
    /// recording that carries it is still redacted.
    public static let tokenQueryItem = "token"

    public let baseURL: Result<URL, RequestConstructionError>
    public let credentials: FinnhubCredentials
    public let userAgent: String

    public init(baseURL: Result<URL, RequestConstructionError>, credentials: FinnhubCredentials, userAgent: String = "commonbroker/0.1") {
        self.baseURL = baseURL
        self.credentials = credentials
        self.userAgent = userAgent
    }

    /// Said when Finnhub rejects the key.
    public var credentialHint: String { "check \(credentials.tokenVariable)" }

    /// `GET /api/v1/quote?symbol=AAPL`. Symbols are sent in their canonical (upper-case) form and
    /// otherwise as written: Finnhub's maintainers suggested `BRK-B` for class shares
    /// (finnhubio/Finnhub-API#4, 2020), but a dot is also Finnhub's exchange suffix (`BP.L`, `7203.T`), so
    /// no rewrite of `.` is safe; users type the form Finnhub lists.
    public func quote(_ symbol: String) -> Result<Request<FinnhubQuote>, RequestConstructionError> {
        guard let token = credentials.usableToken else {
            return .failure(.missingCredential(broker: Self.brokerID, variable: credentials.tokenVariable))
        }
        let canonical: String
        switch Symbol.normalize(symbol) {
        case .success(let normalized): canonical = normalized
        case .failure: return .failure(.invalidSymbol(symbol))
        }
        let query = [URLQueryItem(name: "symbol", value: canonical)]
        return baseURL.flatMap { BrokerURL.join(base: $0, path: "/api/v1/quote", query: query) }.map { url in
            let request = HTTPRequest(url: url, headerFields: [
                "Accept": "application/json",
                Self.tokenHeader: token,
                "User-Agent": userAgent,
            ])
            return Request(
                httpRequest: request, secretNames: [Self.tokenHeader, Self.tokenQueryItem], credentialHint: credentialHint,
                decode: FinnhubResponseMapping.decodeQuote
            )
        }
    }
}
