import Domain
import Foundation
import Networking

/// Finnhub's REST quotes. Finnhub has no batch quote, so each symbol is its own request (at most
/// `maxRequestsInFlight` at once), and no accounts, so there is no `AccountService`.
public struct FinnhubBroker: QuoteService, AuthService {
    public static let branding = ServiceBranding(id: "finnhub", name: "Finnhub", glyph: "F", color: .green)
    /// Finnhub has no sandbox: `--env sandbox` without a base URL override fails clearly.
    public static let productionBaseURL = URL(string: "https://finnhub.io")!
    /// Well under Finnhub's hard cap of 30 calls/s (reference §4.1); the per-minute plan limit is the
    /// gate's business.
    public static let maxRequestsInFlight = 4
    /// Quoted to validate the key: every plan covers it.
    static let validationSymbol = "AAPL"

    public var branding: ServiceBranding { Self.branding }
    public let factory: FinnhubRequestFactory
    private let api: SingleSymbolQuoteAPI<FinnhubQuote>

    /// Every quote request goes through `gate`: the composition root passes the broker's one gate, with its
    /// documented rate limit, so the start-up snapshot and the poller share one budget and one 429 pause.
    public init(context: ServiceContext, credentials: FinnhubCredentials, gate: BrokerRequestGate = BrokerRequestGate()) {
        let factory = FinnhubRequestFactory(
            baseURL: context.baseURL(for: Self.branding.id, production: Self.productionBaseURL, sandbox: nil),
            credentials: credentials, userAgent: context.userAgent
        )
        self.factory = factory
        self.api = SingleSymbolQuoteAPI(
            brokerID: Self.branding.id, maxRequestsInFlight: Self.maxRequestsInFlight,
            credentialHint: factory.credentialHint, servicer: context.servicer, gate: gate,
            request: { factory.quote($0) },
            error: { response, _, credentialHint in FinnhubResponseMapping.error(for: response, credentialHint: credentialHint) },
            quote: { FinnhubResponseMapping.quote(from: $0, symbol: $1) }
        )
    }

    /// One request per distinct symbol. An unknown symbol (Finnhub's all-zero quote) or a 403 fails its own
    /// row; a failed request (429, 5xx, network, a body that is not a quote) or a rejected or missing key
    /// throws for the whole call, so the footer can say why, and the symbols not yet sent are not sent.
    public func quotes(for symbols: [String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        try await api.quotes(for: symbols)
    }

    /// Finnhub has no "who am I" endpoint and nothing in its answers names the user, so validation quotes
    /// `AAPL` (the cheapest call that proves the key) and the display name is the key's kind.
    /// An all-zeros answer still proves the key was accepted.
    public func validateCredentials() async throws(BrokerError) -> String {
        try await api.validateCredentials(quoting: Self.validationSymbol, keyName: "Finnhub API key")
    }
}
