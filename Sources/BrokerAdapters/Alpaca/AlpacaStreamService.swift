import Domain
import Foundation
import Networking

/// Live trades and quotes from Alpaca's market-data WebSocket (`/v2/{feed}`): one connection,
/// authenticated in-band with the key pair, trades and quotes per symbol merged into one `CommonQuote`.
public struct AlpacaStreamService: StreamingQuoteService {
    public var branding: ServiceBranding { AlpacaBroker.branding }
    public let url: URL
    private let connector: any WebSocketConnector
    private let credentials: AlpacaCredentials

    public init(connector: any WebSocketConnector, url: URL, credentials: AlpacaCredentials) {
        self.connector = connector
        self.url = url
        self.credentials = credentials
    }

    /// On `defaultURL(feed:)` for the credentials' feed.
    public init(connector: any WebSocketConnector, credentials: AlpacaCredentials) {
        self.init(connector: connector, url: Self.defaultURL(feed: credentials.feed), credentials: credentials)
    }

    /// `wss://stream.data.alpaca.markets/v2/{feed}`.
    public static func defaultURL(feed: String) -> URL {
        URL(string: "wss://stream.data.alpaca.markets/v2/")!.appendingPathComponent(feed)
    }

    /// The stream that belongs with a market-data REST base URL: `data.alpaca.markets` and
    /// `data.sandbox.alpaca.markets` have theirs on `stream.` hosts; any other host (a fixture server)
    /// serves both, so only the scheme changes (http → ws, https → wss).
    public static func url(forBaseURL baseURL: URL, feed: String) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { return defaultURL(feed: feed) }
        components.scheme = components.scheme == "http" ? "ws" : "wss"
        if let host = components.host, host.hasPrefix("data."), host.hasSuffix("alpaca.markets") {
            components.host = "stream." + host
        }
        components.path = "/v2/" + feed
        components.query = nil
        return components.url ?? defaultURL(feed: feed)
    }

    /// Connects and returns at once; the session reports `.live` once Alpaca accepts the keys.
    public func openSession() async throws(BrokerError) -> any QuoteStreamSession {
        guard let keyID = credentials.keyID, let secretKey = credentials.secretKey, credentials.missingVariable == nil else {
            throw .unauthorized(hint: "set \(credentials.missingVariable ?? credentials.keyIDVariable)")
        }
        let connection: any WebSocketConnection
        do {
            connection = try await connector.connect(to: url, headers: [:], secretNames: [])
        } catch {
            throw StreamCertificateFailure.brokerError(for: error) ?? .network("alpaca stream: \(error)")
        }
        let machine = AlpacaStreamStateMachine(
            keyID: keyID, secretKey: secretKey, credentialHint: credentials.credentialHint, feed: credentials.feed)
        return StreamSocketSession(connection: connection, machine: machine)
    }
}
