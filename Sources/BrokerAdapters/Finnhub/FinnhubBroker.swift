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
    /// poller's business.
    public static let maxRequestsInFlight = 4
    /// Quoted to validate the key: every plan covers it.
    static let validationSymbol = "AAPL"

    public var branding: ServiceBranding { Self.branding }
    public let factory: FinnhubRequestFactory
    private let servicer: any RequestServicer

    public init(context: ServiceContext, credentials: FinnhubCredentials) {
        self.factory = FinnhubRequestFactory(
            baseURL: context.baseURL(for: Self.branding.id, production: Self.productionBaseURL, sandbox: nil),
            credentials: credentials, userAgent: context.userAgent
        )
        self.servicer = context.servicer
    }

    /// One request per distinct symbol. An unknown symbol, a 403 or a 429 fails its own row; a rejected key
    /// (every symbol unauthorized) or a missing key throws, so the footer can say "check FINNHUB_TOKEN".
    /// After a 401 or 429 the symbols not yet sent fail the same way instead of being sent.
    public func quotes(for symbols: [String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        let servicer = self.servicer
        let rejectedKey = BrokerError.unauthorized(hint: factory.credentialHint)
        return try await PerSymbolQuotes.collect(
            symbols, maxInFlight: Self.maxRequestsInFlight,
            request: factory.quote,
            endsBatch: { error in
                if case .rateLimited = error { return true }
                return error == rejectedKey
            },
            fetch: { request, symbol in await Self.fetch(request, symbol: symbol, servicer: servicer) }
        )
    }

    /// Finnhub has no "who am I" endpoint and nothing in its answers names the user, so validation quotes
    /// `AAPL` (the cheapest call that proves the key) and the display name is the key's kind.
    /// An all-zeros answer still proves the key was accepted.
    public func validateCredentials() async throws(BrokerError) -> String {
        let symbol = Self.validationSymbol
        switch try await quotes(for: [symbol])[symbol] {
        case .success, .failure(.unknownSymbol): return "Finnhub API key"
        case .failure(let error): throw error
        case nil: throw .badResponse("finnhub: no answer for \(symbol)")
        }
    }

    private static func fetch(
        _ request: Request<FinnhubQuote>, symbol: String, servicer: any RequestServicer
    ) async -> Result<CommonQuote, BrokerError> {
        do throws(BrokerError) {
            let response = try await servicer.send(request.urlRequest, secretNames: request.secretNames)
            if let error = FinnhubResponseMapping.error(for: response, credentialHint: request.credentialHint) {
                return .failure(error)
            }
            return FinnhubResponseMapping.quote(from: try request.decode(response), symbol: symbol)
        } catch {
            return .failure(error)
        }
    }
}
