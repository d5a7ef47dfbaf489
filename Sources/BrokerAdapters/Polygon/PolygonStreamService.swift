import Domain
import Foundation
import Networking

/// Live trades and quotes from Polygon's (Massive's) stocks WebSocket: one connection, authenticated
/// in-band with the API key, trades and quotes per symbol merged into one `CommonQuote`.
public struct PolygonStreamService: StreamingQuoteService {
    public static let defaultURL = URL(string: "wss://socket.polygon.io/stocks")!

    public var branding: ServiceBranding { PolygonBroker.branding }
    public let url: URL
    private let connector: any WebSocketConnector
    private let credentials: PolygonCredentials

    public init(connector: any WebSocketConnector, url: URL = PolygonStreamService.defaultURL, credentials: PolygonCredentials) {
        self.connector = connector
        self.url = url
        self.credentials = credentials
    }

    /// The stocks socket that belongs with a REST base URL: `api.polygon.io` and `api.massive.com` have
    /// their sockets on `socket.` hosts; any other host (a fixture server) serves both, so only the scheme
    /// changes (http → ws, https → wss).
    public static func url(forBaseURL baseURL: URL) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { return defaultURL }
        components.scheme = components.scheme == "http" ? "ws" : "wss"
        if let host = components.host, host.hasPrefix("api."), host.hasSuffix("polygon.io") || host.hasSuffix("massive.com") {
            components.host = "socket." + host.dropFirst("api.".count)
        }
        components.path = "/stocks"
        components.query = nil
        return components.url ?? defaultURL
    }

    /// Connects and returns at once; the session reports `.live` once Polygon accepts the key.
    public func openSession() async throws(BrokerError) -> any QuoteStreamSession {
        guard let key = credentials.usableKey else { throw .unauthorized(hint: "set \(credentials.apiKeyVariable)") }
        let connection: any WebSocketConnection
        do {
            connection = try await connector.connect(to: url, headers: [:], secretNames: [])
        } catch {
            throw StreamCertificateFailure.brokerError(for: error) ?? .network("polygon stream: \(error)")
        }
        let machine = PolygonStreamStateMachine(apiKey: key, credentialHint: "check \(credentials.apiKeyVariable)")
        return StreamSocketSession(connection: connection, machine: machine)
    }
}
