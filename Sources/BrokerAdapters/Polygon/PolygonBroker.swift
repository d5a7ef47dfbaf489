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
    /// The free tier allows about 5 requests a minute (reference §2.4): the gate paces requests; this only
    /// bounds one call's burst.
    public static let maxRequestsInFlight = 4
    /// Snapshotted to validate the key.
    static let validationSymbol = "AAPL"

    public var branding: ServiceBranding { Self.branding }
    public let factory: PolygonRequestFactory
    private let api: SingleSymbolQuoteAPI<PolygonSnapshotResponse>

    /// Every quote request goes through `gate`: the composition root passes the broker's one gate, with its
    /// documented rate limit, so the start-up snapshot and the poller share one budget and one 429 pause.
    public init(context: ServiceContext, credentials: PolygonCredentials, gate: BrokerRequestGate = BrokerRequestGate()) {
        let factory = PolygonRequestFactory(
            baseURL: context.baseURL(for: Self.branding.id, production: Self.productionBaseURL, sandbox: nil),
            credentials: credentials, userAgent: context.userAgent
        )
        self.factory = factory
        self.api = SingleSymbolQuoteAPI(
            brokerID: Self.branding.id, maxRequestsInFlight: Self.maxRequestsInFlight,
            credentialHint: factory.credentialHint, servicer: context.servicer, gate: gate,
            request: { factory.snapshot($0) },
            error: { PolygonResponseMapping.error(for: $0, symbol: $1, credentialHint: $2) },
            quote: { response, symbol throws(BrokerError) in try PolygonResponseMapping.quote(from: response, symbol: symbol) }
        )
    }

    /// One snapshot per distinct symbol. Not found and 403 (plan) fail their own row; a failed request (429,
    /// 5xx, network, a body that is not a snapshot) or a rejected or missing key throws for the whole call,
    /// so the footer can say why, and the symbols not yet sent are not sent.
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
