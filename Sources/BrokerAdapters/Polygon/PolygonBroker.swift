import Domain
import Foundation
import Networking

/// Polygon's (Massive's) REST snapshots. One request per ticker (at most `maxRequestsInFlight` at once):
/// the multi-ticker snapshot exists but its paging and plan limits are not in our reference. Polygon has
/// no brokerage accounts, so there is no `AccountService`.
public struct PolygonBroker: QuoteService, AuthService {
    public static let branding = ServiceBranding(id: "polygon", name: "Polygon", glyph: "P", color: .magenta)
    /// Polygon has no sandbox: `--env sandbox` without a base URL override fails clearly.
    public static let productionBaseURL = URL(string: "https://api.polygon.io")!
    /// The same API under Polygon's new name (reference §2): set it as the base URL override to use it.
    public static let massiveBaseURL = URL(string: "https://api.massive.com")!
    /// The free tier allows about 5 requests a minute (reference §2.4): the poller paces requests; this only
    /// bounds one call's burst.
    public static let maxRequestsInFlight = 4
    /// Snapshotted to validate the key.
    static let validationSymbol = "AAPL"

    public var branding: ServiceBranding { Self.branding }
    public let factory: PolygonRequestFactory
    private let api: SingleSymbolQuoteAPI<PolygonSnapshotResponse>

    public init(context: ServiceContext, credentials: PolygonCredentials) {
        let factory = PolygonRequestFactory(
            baseURL: context.baseURL(for: Self.branding.id, production: Self.productionBaseURL, sandbox: nil),
            credentials: credentials, userAgent: context.userAgent
        )
        self.factory = factory
        self.api = SingleSymbolQuoteAPI(
            brokerID: Self.branding.id, maxRequestsInFlight: Self.maxRequestsInFlight,
            credentialHint: factory.credentialHint, servicer: context.servicer,
            request: { factory.snapshot($0) },
            error: { PolygonResponseMapping.error(for: $0, symbol: $1, credentialHint: $2) },
            quote: { PolygonResponseMapping.quote(from: $0, symbol: $1) }
        )
    }

    /// One snapshot per distinct symbol. Not found, 403 (plan) and 429 fail their own row; a rejected key
    /// (every symbol unauthorized) or a missing key throws, so the footer can say "check POLYGON_API_KEY".
    /// After a 401 or 429 the symbols not yet sent fail the same way instead of being sent.
    public func quotes(for symbols: [String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        try await api.quotes(for: symbols)
    }

    /// Polygon has no "who am I" endpoint: one snapshot of `AAPL` proves the key, and the display name is
    /// the key's kind. A key whose plan lacks snapshots fails here with the plan hint, since quotes would
    /// fail the same way.
    public func validateCredentials() async throws(BrokerError) -> String {
        try await api.validateCredentials(quoting: Self.validationSymbol, keyName: "Polygon API key")
    }
}
