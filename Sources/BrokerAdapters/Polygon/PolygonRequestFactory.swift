import Domain
import Foundation
import Networking

/// Builds Polygon (Massive) REST requests. Pure: no I/O, the same inputs give the same request.
public struct PolygonRequestFactory: Sendable {
    public static let brokerID = "polygon"
    /// Polygon accepts `?apiKey=` or `Authorization: Bearer KEY` (reference §2.4). We send the header so that
    /// URLs, which end up in logs and recordings more easily than headers, never carry the key.
    public static let authorizationHeader = "Authorization"
    /// Polygon's query form of the key. Never sent; listed as a secret so a base URL or a recording that
    /// carries it is still redacted.
    public static let apiKeyQueryItem = "apiKey"
    /// RFC 3986 unreserved characters: anything else in a ticker (`/`, `^`) is percent-encoded so it stays
    /// inside its path segment.
    private static let tickerSegmentAllowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    public let baseURL: Result<URL, RequestConstructionError>
    public let credentials: PolygonCredentials
    public let userAgent: String

    public init(baseURL: Result<URL, RequestConstructionError>, credentials: PolygonCredentials, userAgent: String = "commonbroker/0.1") {
        self.baseURL = baseURL
        self.credentials = credentials
        self.userAgent = userAgent
    }

    /// Said when Polygon rejects the key.
    public var credentialHint: String { "check \(credentials.apiKeyVariable)" }

    /// `GET /v2/snapshot/locale/us/markets/stocks/tickers/{ticker}`. Polygon writes share classes with a dot
    /// (`BRK.B`), as our canonical symbols do (OpenBB-finance/OpenBB#1764: "IEX/Polygon: BRK.A; BRK.B"),
    /// so tickers go out in canonical form without mapping.
    public func snapshot(_ ticker: String) -> Result<Request<PolygonSnapshotResponse>, RequestConstructionError> {
        guard let key = credentials.usableKey else {
            return .failure(.missingCredential(broker: Self.brokerID, variable: credentials.apiKeyVariable))
        }
        let canonical: String
        switch Symbol.normalize(ticker) {
        case .success(let normalized): canonical = normalized
        case .failure: return .failure(.invalidSymbol(ticker))
        }
        guard let segment = canonical.addingPercentEncoding(withAllowedCharacters: Self.tickerSegmentAllowed) else {
            return .failure(.invalidSymbol(ticker))
        }
        let path = "/v2/snapshot/locale/us/markets/stocks/tickers/\(segment)"
        return baseURL.flatMap { BrokerURL.join(base: $0, path: path) }.map { url in
            let request = HTTPRequest(url: url, headerFields: [
                "Accept": "application/json",
                Self.authorizationHeader: "Bearer \(key)",
                "User-Agent": userAgent,
            ])
            return Request(
                httpRequest: request, secretNames: [Self.authorizationHeader, Self.apiKeyQueryItem],
                credentialHint: credentialHint, decode: PolygonResponseMapping.decodeSnapshot
            )
        }
    }
}
