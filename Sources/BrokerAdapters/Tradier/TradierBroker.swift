import Domain
import Foundation
import Networking
import TextSafety

/// Tradier's REST API as quotes, balances, a credential check, positions and orders (reference §1, §8.2).
/// Quotes are polled: symbols go in batches of `maxSymbolsPerRequest`, a few batches at a time. The one
/// provider of Tradier's capabilities: it lists the trading primitives (`servicer`, `factory`,
/// `liveTradingGuard`, `now`, `accountID`) that `TradierTradingStack` implements positions and orders over.
public struct TradierBroker: QuoteService, AccountService, AuthService, TradierTradingStack {
    public static let branding = ServiceBranding(id: "tradier", name: "Tradier", glyph: "T", color: .blue)
    /// Tradier publishes no limit for the GET form; 100 keeps the URL far below common 8 KB caps.
    public static let maxSymbolsPerRequest = 100
    /// Requests in flight at once: Tradier counts 120 (sandbox 60) market-data requests a minute per token.
    static let maxConcurrentRequests = 4

    /// Hosts of the live (real-money) API.
    public static let liveTradingHosts: Set<String> = [TradierRequestFactory.productionURL.host ?? "api.tradier.com"]

    public var branding: ServiceBranding { Self.branding }
    public let factory: TradierRequestFactory
    public let servicer: any RequestServicer
    public let liveTradingGuard: LiveTradingGuard
    public let now: @Sendable () -> Date
    public let accountID: String?
    private let gate: BrokerRequestGate

    /// `now` stamps quotes that carry no trade date and orders Tradier acknowledges without one, and dates
    /// `X-Ratelimit-Expiry`; tests inject it. Every quote request goes through `gate`, the broker's one
    /// market-data budget and 429 pause (the composition root builds it with Tradier's documented limit).
    /// Profile, balances, positions and orders are not gated: Tradier counts them in other categories
    /// (reference §1.4).
    ///
    /// `accountID` is the account positions and orders are in; nil for the profile's only account.
    /// Orders (place, modify, cancel) go to the sandbox when `context.environment` is `.sandbox`; in
    /// `.production`, or to `api.tradier.com` by any route, they are refused with `.liveTradingNotAllowed`,
    /// nothing sent, unless `liveTrading` is `.allowed`.
    public init(
        context: ServiceContext, credentials: TradierCredentials, gate: BrokerRequestGate = BrokerRequestGate(),
        accountID: String? = nil, liveTrading: LiveTrading = .notAllowed, now: @escaping @Sendable () -> Date = Date.init
    ) {
        let baseURL = context.baseURL(
            for: Self.branding.id, production: TradierRequestFactory.productionURL, sandbox: TradierRequestFactory.sandboxURL)
        self.factory = TradierRequestFactory(baseURL: baseURL, credentials: credentials, userAgent: context.userAgent)
        self.servicer = context.servicer
        self.liveTradingGuard = LiveTradingGuard(
            brokerID: Self.branding.id, environment: context.environment, liveTrading: liveTrading, liveHosts: Self.liveTradingHosts)
        self.accountID = accountID.flatMap { $0.isEmpty ? nil : $0 }
        self.gate = gate
        self.now = now
    }

    /// One result per distinct symbol, keyed and named as the caller wrote it. Only Tradier's own word
    /// makes a symbol `.unknownSymbol`: listed in `unmatched_symbols` (or not a valid symbol at all). A
    /// symbol the answer neither quotes nor lists is that row's `.badResponse`, and is asked for again.
    /// Throws when any batch failed (429, 5xx, network, a body that is not a quotes answer): that is the
    /// broker's failure, not a verdict on the symbols.
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
        let outcomes = await BoundedConcurrency.results(
            for: batches, limit: Self.maxConcurrentRequests, endsBatch: { _ in true }
        ) { batch throws(BrokerError) in
            try await gate.perform { () async throws(BrokerError) in try await quotesAnswer(for: batch) }
        }
        if Task.isCancelled { throw .cancelled }
        if let failure = PerSymbolQuotes.failedRequest(in: outcomes) { throw failure }

        var quoteByWireSymbol: [String: TradierQuote] = [:]
        var unmatched: Set<String> = []
        for case .success(let envelope) in outcomes {
            for quote in envelope.quoteList { quoteByWireSymbol[quote.symbol.uppercased()] = quote }
            for symbol in envelope.unmatchedSymbolList { unmatched.insert(symbol.uppercased()) }
        }
        let stamp = now()
        for (userSymbol, wire) in wireSymbolByUserSymbol {
            if let quote = quoteByWireSymbol[wire] {
                results[userSymbol] = Self.commonQuote(from: quote, symbol: userSymbol, now: stamp)
            } else if unmatched.contains(wire) {
                results[userSymbol] = .failure(.unknownSymbol(userSymbol))
            } else {
                results[userSymbol] = .failure(.badResponse(
                    "\(Self.branding.id): the answer has no quote and no unmatched entry for \(VisibleText.escaped(userSymbol))"))
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
        return VisibleText.escaped(name)
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

    /// One quotes request. A body without a `quotes` object, or one whose `quotes` holds neither quotes nor
    /// unmatched symbols, is not an answer about the symbols asked for (Tradier always names each one,
    /// reference §1.2): the request failed, and nothing is concluded about them.
    private func quotesAnswer(for batch: [String]) async throws(BrokerError) -> TradierQuotesEnvelope {
        let envelope = try await perform(factory.quotes(batch))
        guard !envelope.quoteList.isEmpty || !envelope.unmatchedSymbolList.isEmpty else {
            throw .badResponse("\(Self.branding.id): unexpected response: no quotes and no unmatched symbols for \(batch.count) asked")
        }
        return envelope
    }

    /// Sends through the one servicer. Statuses map as for every broker, except that a 4xx carrying
    /// Tradier's `errors`/`fault` JSON keeps that message rather than a raw excerpt (`TradierExchange`).
    private func perform<Response>(_ built: Result<Request<Response>, RequestConstructionError>) async throws(BrokerError) -> Response {
        try await exchange.perform(built)
    }
}
