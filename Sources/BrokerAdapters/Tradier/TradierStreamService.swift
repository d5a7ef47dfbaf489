import Domain
import Foundation
import Networking

/// Live trades and quotes from Tradier's market WebSocket (reference §1.5): each session first asks the
/// REST API for a stream session id (`POST /v1/markets/events/session`, bearer token), then opens the
/// socket and sends the id with every subscription payload. A session id is good for one connection: a
/// reconnect (the hub calls `openSession` again) always makes a new one, which is also how an expired or
/// refused session recovers.
public struct TradierStreamService: StreamingQuoteService {
    public static let defaultURL = URL(string: "wss://ws.tradier.com/v1/markets/events")!

    public var branding: ServiceBranding { TradierBroker.branding }
    public let url: URL
    public let factory: TradierRequestFactory
    private let connector: any WebSocketConnector
    private let servicer: any RequestServicer
    /// The sandbox has no market stream (reference §1.5): without a base URL override it fails at once.
    private let sandboxWithoutOverride: Bool
    private let isSandbox: Bool
    private let now: @Sendable () -> Date

    /// `url` nil: the socket that belongs with the context's base URL override for Tradier, if any
    /// (`url(forBaseURL:)`), else `defaultURL`. `now` dates events that carry no date and `X-Ratelimit-Expiry`.
    public init(
        connector: any WebSocketConnector, url: URL? = nil, context: ServiceContext, credentials: TradierCredentials,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        let override = context.baseURLOverrides[TradierBroker.branding.id]
        self.connector = connector
        self.url = url ?? override.map(Self.url(forBaseURL:)) ?? Self.defaultURL
        self.factory = TradierRequestFactory(
            baseURL: context.baseURL(
                for: TradierBroker.branding.id, production: TradierRequestFactory.productionURL, sandbox: TradierRequestFactory.sandboxURL),
            credentials: credentials, userAgent: context.userAgent)
        self.servicer = context.servicer
        self.isSandbox = context.environment == .sandbox
        self.sandboxWithoutOverride = context.environment == .sandbox && override == nil
        self.now = now
    }

    /// The market socket that belongs with a REST base URL: `api.tradier.com` has its socket on
    /// `ws.tradier.com`; any other host (a fixture server) serves both, so only the scheme changes
    /// (http → ws, https → wss).
    public static func url(forBaseURL baseURL: URL) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { return defaultURL }
        components.scheme = components.scheme == "http" ? "ws" : "wss"
        if components.host == "api.tradier.com" { components.host = "ws.tradier.com" }
        components.path = "/v1/markets/events"
        components.query = nil
        return components.url ?? defaultURL
    }

    /// Creates a stream session, connects and returns; the session reports `.live` at its first step
    /// (Tradier acknowledges nothing).
    public func openSession() async throws(BrokerError) -> any QuoteStreamSession {
        if sandboxWithoutOverride { throw .unauthorized(hint: TradierStreamStateMachine.sandboxHint) }
        let sessionID = try await createSessionID()
        let secrets = [sessionID, factory.credentials.usableToken ?? ""]
        let connection: any WebSocketConnection
        do {
            // No auth header: the session id, sent in the payload, is the credential (reference §1.5).
            connection = try await connector.connect(to: url, headers: [:], secretNames: [])
        } catch {
            throw Self.brokerError(for: error, secrets: secrets)
        }
        let machine = TradierStreamStateMachine(sessionID: sessionID, isSandbox: isSandbox, secrets: secrets, now: now)
        return StreamSocketSession(connection: connection, machine: machine)
    }

    /// `POST /v1/markets/events/session`. Statuses map as for every broker (401: "check TRADIER_TOKEN",
    /// permanent), except that a 4xx with Tradier's `errors`/`fault` JSON keeps its message.
    private func createSessionID() async throws(BrokerError) -> String {
        let request: Request<TradierStreamSessionEnvelope>
        switch factory.streamSession() {
        case .success(let built): request = built
        case .failure(let error): throw error.brokerError
        }
        let response = try await servicer.send(request.httpRequest, secretNames: request.secretNames)
        if let error = HTTPStatusMapping.error(for: response, credentialHint: request.credentialHint, now: now()) {
            if case .badResponse = error, let message = TradierResponseDecoding.errorMessage(in: response) {
                throw .badResponse("tradier stream session: HTTP \(response.status): \(message)")
            }
            throw error
        }
        return try request.decode(response).stream.sessionid
    }

    /// A failed connect in the broker domain. The upgrade carries no credential, so no status means a bad
    /// token; server faults and 429 keep their meaning, the rest are retryable network errors.
    static func brokerError(for error: WebSocketError, secrets: [String]) -> BrokerError {
        if let certificate = StreamCertificateFailure.brokerError(for: error) { return certificate }
        switch error {
        case .handshakeFailed(429, _):
            return .rateLimited(retryAfter: nil)
        case .handshakeFailed(let status, _) where (500..<600).contains(status):
            return .server(status: status)
        default:
            return .network("tradier stream: " + Redaction.text("\(error)", secretValues: secrets.filter { !$0.isEmpty }))
        }
    }
}
