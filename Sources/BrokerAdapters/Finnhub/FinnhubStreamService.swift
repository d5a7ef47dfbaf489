import Domain
import Foundation
import Networking

/// Live trades from Finnhub's WebSocket (reference §4.2): one connection per API key, the key in the
/// URL's `token` query item, one subscribe message per symbol. Finnhub streams trades only, so quotes
/// carry a last price and no bid or ask.
public struct FinnhubStreamService: StreamingQuoteService {
    public static let defaultURL = URL(string: "wss://ws.finnhub.io")!
    /// The query item that carries the key; passed to the connector as a secret so no error shows it.
    public static let tokenQueryItem = "token"

    public var branding: ServiceBranding { FinnhubBroker.branding }
    /// The socket without the key, which is added when connecting.
    public let url: URL
    private let connector: any WebSocketConnector
    private let credentials: FinnhubCredentials

    public init(connector: any WebSocketConnector, url: URL = FinnhubStreamService.defaultURL, credentials: FinnhubCredentials) {
        self.connector = connector
        self.url = url
        self.credentials = credentials
    }

    /// The socket that belongs with a REST base URL: `finnhub.io` has its socket on `ws.finnhub.io`; any
    /// other host (a fixture server) serves both, so only the scheme changes (http → ws, https → wss).
    /// The path is empty, as on the real socket (the request line says `/?token=…`).
    public static func url(forBaseURL baseURL: URL) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { return defaultURL }
        components.scheme = components.scheme == "http" ? "ws" : "wss"
        if let host = components.host, host == "finnhub.io" || host.hasSuffix(".finnhub.io") {
            components.host = "ws.finnhub.io"
        }
        components.path = ""
        components.query = nil
        return components.url ?? defaultURL
    }

    /// Connects and returns at once; the session reports `.live` at its first step (Finnhub has no auth
    /// message: the upgrade itself accepts or refuses the key).
    public func openSession() async throws(BrokerError) -> any QuoteStreamSession {
        let hint = "check \(credentials.tokenVariable)"
        guard let token = credentials.usableToken else { throw .unauthorized(hint: "set \(credentials.tokenVariable)") }
        let connection: any WebSocketConnection
        do {
            connection = try await connector.connect(
                to: Self.authenticatedURL(url, token: token), headers: [:], secretNames: [Self.tokenQueryItem])
        } catch {
            throw Self.brokerError(for: error, credentialHint: hint, token: token)
        }
        return StreamSocketSession(connection: connection, machine: FinnhubStreamStateMachine(credentialHint: hint, secrets: [token]))
    }

    /// `url` with `token=<key>` added to its query, the key percent-encoded.
    static func authenticatedURL(_ url: URL, token: String) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = token.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let item = "\(tokenQueryItem)=\(encoded)"
        components.percentEncodedQuery = components.percentEncodedQuery.map { $0 + "&" + item } ?? item
        return components.url ?? url
    }

    /// A failed connect in the broker domain. A bad key shows up as the upgrade's HTTP status (Finnhub has
    /// no auth message). 429 is retryable: besides a plan's rate limit it is what a second connection with
    /// the same key gets, and our own previous connection can hold that place for a while after a drop;
    /// the hub's backoff keeps retries sparse.
    static func brokerError(for error: WebSocketError, credentialHint: String, token: String) -> BrokerError {
        if let certificate = StreamCertificateFailure.brokerError(for: error) { return certificate }
        switch error {
        case .handshakeFailed(let status, _) where status == 401 || status == 403:
            return .unauthorized(hint: credentialHint)
        case .handshakeFailed(429, _):
            return .rateLimited(retryAfter: nil)
        case .handshakeFailed(let status, _) where (500..<600).contains(status):
            return .server(status: status)
        default:
            // The connector already redacts the `token` item; the key is removed again in case a server
            // echoed it some other way.
            return .network("finnhub stream: " + Redaction.text("\(error)", secretNames: [tokenQueryItem], secretValues: [token]))
        }
    }
}
