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
    private let servicer: any RequestServicer

    public init(context: ServiceContext, credentials: PolygonCredentials) {
        self.factory = PolygonRequestFactory(
            baseURL: context.baseURL(for: Self.branding.id, production: Self.productionBaseURL, sandbox: nil),
            credentials: credentials, userAgent: context.userAgent
        )
        self.servicer = context.servicer
    }

    /// One snapshot per distinct symbol. Not found, 403 (plan) and 429 fail their own row; a rejected key
    /// (every symbol unauthorized) or a missing key throws, so the footer can say "check POLYGON_API_KEY".
    /// After a 401 or 429 the symbols not yet sent fail the same way instead of being sent.
    public func quotes(for symbols: [String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        try await PerSymbolQuotes.quotes(
            for: symbols, maxInFlight: Self.maxRequestsInFlight, credentialHint: factory.credentialHint,
            servicer: servicer, request: factory.snapshot,
            error: PolygonResponseMapping.error(for:symbol:credentialHint:),
            quote: PolygonResponseMapping.quote(from:symbol:)
        )
    }

    /// Polygon has no "who am I" endpoint: one snapshot of `AAPL` proves the key, and the display name is
    /// the key's kind. A key whose plan lacks snapshots fails here with the plan hint, since quotes would
    /// fail the same way.
    public func validateCredentials() async throws(BrokerError) -> String {
        try await PerSymbolQuotes.validate(broker: "polygon", symbol: Self.validationSymbol, displayName: "Polygon API key") {
            (symbols: [String]) async throws(BrokerError) in try await quotes(for: symbols)
        }
    }
}
