import Domain
import Foundation
import Networking

/// Tradier's REST API as quotes, balances and a credential check (reference §1). Quotes are polled:
/// symbols go in batches of `maxSymbolsPerRequest`, a few batches at a time.
public struct TradierBroker: QuoteService, AccountService, AuthService {
    public static let branding = ServiceBranding(id: "tradier", name: "Tradier", glyph: "T", color: .blue)
    /// Tradier publishes no limit for the GET form; 100 keeps the URL far below common 8 KB caps.
    public static let maxSymbolsPerRequest = 100
    /// Requests in flight at once: Tradier counts 120 (sandbox 60) market-data requests a minute per token.
    static let maxConcurrentRequests = 4

    public var branding: ServiceBranding { Self.branding }
    public let factory: TradierRequestFactory
    private let servicer: any RequestServicer
    private let now: @Sendable () -> Date

    /// `now` stamps quotes that carry no trade date and dates `X-Ratelimit-Expiry`; tests inject it.
    public init(context: ServiceContext, credentials: TradierCredentials, now: @escaping @Sendable () -> Date = Date.init) {
        let baseURL = context.baseURL(
            for: Self.branding.id, production: TradierRequestFactory.productionURL, sandbox: TradierRequestFactory.sandboxURL)
        self.factory = TradierRequestFactory(baseURL: baseURL, credentials: credentials, userAgent: context.userAgent)
        self.servicer = context.servicer
        self.now = now
    }

    /// One result per distinct symbol, keyed and named as the caller wrote it. A symbol Tradier lists as
    /// unmatched, or leaves out altogether, is `.unknownSymbol`. Throws only when no batch got an answer.
    public func quotes(for symbols: [String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        var results: [String: Result<CommonQuote, BrokerError>] = [:]
        var wireSymbolByUserSymbol: [String: String] = [:]
        var wireSymbols: [String] = []
        var seen: Set<String> = []
        for symbol in symbols where results[symbol] == nil && wireSymbolByUserSymbol[symbol] == nil {
            switch Symbol.normalize(symbol) {
            case .failure:
                results[symbol] = .failure(RequestConstructionError.invalidSymbol(symbol).brokerError)
            case .success(let normalized):
                let wire = TradierSymbol.wire(normalized)
                wireSymbolByUserSymbol[symbol] = wire
                if seen.insert(wire).inserted { wireSymbols.append(wire) }
            }
        }
        guard !wireSymbols.isEmpty else { return results }

        let batches = stride(from: 0, to: wireSymbols.count, by: Self.maxSymbolsPerRequest).map {
            Array(wireSymbols[$0..<min($0 + Self.maxSymbolsPerRequest, wireSymbols.count)])
        }
        let outcomes = await BoundedConcurrency.results(for: batches, limit: Self.maxConcurrentRequests) { batch throws(BrokerError) in
            try await perform(factory.quotes(batch))
        }
        if let firstError = Self.errorIfAllFailed(outcomes) { throw firstError }

        var quoteByWireSymbol: [String: TradierQuote] = [:]
        var errorByWireSymbol: [String: BrokerError] = [:]
        for (batch, outcome) in zip(batches, outcomes) {
            switch outcome {
            case .success(let envelope):
                for quote in envelope.quoteList { quoteByWireSymbol[quote.symbol.uppercased()] = quote }
            case .failure(let error):
                for symbol in batch { errorByWireSymbol[symbol] = error }
            }
        }
        let stamp = now()
        for (userSymbol, wire) in wireSymbolByUserSymbol {
            if let error = errorByWireSymbol[wire] {
                results[userSymbol] = .failure(error)
            } else if let quote = quoteByWireSymbol[wire] {
                results[userSymbol] = Self.commonQuote(from: quote, symbol: userSymbol, now: stamp)
            } else {
                results[userSymbol] = .failure(.unknownSymbol(userSymbol))
            }
        }
        return results
    }

    /// Every account in the profile with its balances: cash, buying power (margin or pattern-day-trader
    /// stock buying power, else cash available) and equity.
    public func balances() async throws(BrokerError) -> [AccountBalance] {
        let accounts = try await perform(factory.profile()).profile.accounts
        let outcomes = await BoundedConcurrency.results(for: accounts.map(\.accountNumber), limit: Self.maxConcurrentRequests) {
            accountID throws(BrokerError) in
            try await perform(factory.balances(accountID: accountID))
        }
        var balances: [AccountBalance] = []
        for (account, outcome) in zip(accounts, outcomes) {
            balances.append(Self.accountBalance(from: try outcome.get().balances, accountID: account.accountNumber))
        }
        return balances
    }

    /// The profile's name: proof that Tradier accepts the token.
    public func validateCredentials() async throws(BrokerError) -> String {
        let profile = try await perform(factory.profile()).profile
        let candidates = [profile.name, profile.id, profile.accounts.first?.accountNumber]
        guard let name = candidates.compactMap({ $0?.trimmingCharacters(in: .whitespaces) }).first(where: { !$0.isEmpty }) else {
            throw .badResponse("\(Self.branding.id): the profile has no name, id or account")
        }
        return Symbol.printable(name)
    }

    /// The domain quote for `symbol` as the user wrote it. Without a last trade (before a symbol's first
    /// trade) the previous close stands in, as quote screens show it before the open.
    static func commonQuote(from quote: TradierQuote, symbol: String, now: Date) -> Result<CommonQuote, BrokerError> {
        guard let last = quote.last?.value ?? quote.previousClose?.value else {
            return .failure(.badResponse("\(branding.id): no last price or previous close for \(symbol)"))
        }
        // 0 means "no trade yet" rather than 1970.
        let tradeDate = quote.tradeDate?.value.flatMap { $0 > 0 ? $0 : nil }
        return .success(CommonQuote(
            symbol: symbol, last: last,
            timestamp: tradeDate.map(EpochTimestamp.milliseconds.date(from:)) ?? now,
            bid: quote.bid?.value, ask: quote.ask?.value,
            previousClose: quote.previousClose?.value, volume: quote.volume?.value
        ))
    }

    static func accountBalance(from balances: TradierBalancesEnvelope.Balances, accountID: String) -> AccountBalance {
        let buyingPower = balances.margin?.stockBuyingPower?.value
            ?? balances.patternDayTrader?.stockBuyingPower?.value
            ?? balances.cash?.cashAvailable?.value
        return AccountBalance(
            accountID: balances.accountNumber ?? accountID, cash: balances.totalCash?.value,
            buyingPower: buyingPower, equity: balances.totalEquity?.value)
    }

    /// The first batch's error when no batch succeeded: then the whole request failed.
    private static func errorIfAllFailed<Output>(_ outcomes: [Result<Output, BrokerError>]) -> BrokerError? {
        var first: BrokerError?
        for outcome in outcomes {
            switch outcome {
            case .success: return nil
            case .failure(let error): first = first ?? error
            }
        }
        return first
    }

    /// Sends through the context's servicer. Statuses map as for every broker, except that a 4xx
    /// carrying Tradier's `errors`/`fault` JSON keeps that message rather than a raw excerpt.
    private func perform<Response>(_ built: Result<Request<Response>, RequestConstructionError>) async throws(BrokerError) -> Response {
        let request: Request<Response>
        switch built {
        case .success(let value): request = value
        case .failure(let error): throw error.brokerError
        }
        let response = try await servicer.send(request.urlRequest, secretNames: request.secretNames)
        if let error = HTTPStatusMapping.error(for: response, credentialHint: request.credentialHint, now: now()) {
            if case .badResponse = error, let message = TradierResponseDecoding.errorMessage(in: response) {
                throw .badResponse("\(Self.branding.id): HTTP \(response.status): \(message)")
            }
            throw error
        }
        return try request.decode(response)
    }
}
