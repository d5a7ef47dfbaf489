import Domain
import Foundation
import Networking
import TextSafety

/// Alpaca: quotes from the Market Data API's snapshots; the account, positions and orders from the Trading
/// API. The one provider of Alpaca's capabilities: it lists the trading primitives (`servicer`, `factory`,
/// `liveTradingGuard`, `now`) that `AlpacaTradingStack` implements positions and orders over, so the
/// composition builds one value per broker and hands each use site the one protocol it needs.
public struct AlpacaBroker: QuoteService, AccountService, AuthService, AlpacaTradingStack {
    public static let branding = ServiceBranding(id: "alpaca", name: "Alpaca", glyph: "A", color: .yellow)

    /// Symbols per snapshots request. Alpaca documents no maximum for `symbols`; 100 keeps the URL short
    /// (at most 100 × 16 characters, far below common 8 KiB limits) and matches what its SDKs page by.
    /// The free plan allows 200 requests a minute (reference §3.1), so a 400-symbol watchlist costs 4.
    public static let symbolsPerRequest = 100
    /// Requests in flight at once for a large watchlist.
    static let maxConcurrentRequests = 4

    /// Hosts of the live (real-money) Trading API.
    public static let liveTradingHosts: Set<String> = [AlpacaRequestFactory.tradingProductionURL.host ?? "api.alpaca.markets"]

    public var branding: ServiceBranding { Self.branding }
    public let servicer: any RequestServicer
    public let factory: AlpacaRequestFactory
    public let liveTradingGuard: LiveTradingGuard
    public let now: @Sendable () -> Date
    private let gate: BrokerRequestGate

    /// `now` dates rate-limit reset headers (epoch seconds); tests inject it. Every snapshots request goes
    /// through `gate`, the Market Data API's one budget and 429 pause (the composition root builds it with
    /// the documented limit). The account, positions and orders are on the Trading API, counted apart
    /// (reference §3.1), so they are not gated.
    ///
    /// Orders (place, replace, cancel) go to paper trading when `context.environment` is `.sandbox`; in
    /// `.production`, or to `api.alpaca.markets` by any route, they are refused with
    /// `.liveTradingNotAllowed`, nothing sent, unless `liveTrading` is `.allowed`.
    public init(
        context: ServiceContext, credentials: AlpacaCredentials, gate: BrokerRequestGate = BrokerRequestGate(),
        liveTrading: LiveTrading = .notAllowed, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.servicer = context.servicer
        self.factory = AlpacaRequestFactory(context: context, credentials: credentials)
        self.liveTradingGuard = LiveTradingGuard(
            brokerID: Self.branding.id, environment: context.environment, liveTrading: liveTrading, liveHosts: Self.liveTradingHosts)
        self.gate = gate
        self.now = now
    }

    /// Quotes keyed and spelled as the user wrote the symbols. Symbols that are not valid symbols, or that
    /// Alpaca answers with `null` or leaves out of its map (its documented words for "unknown", reference
    /// §3.1), are `.unknownSymbol` rows. Throws when any request failed (429, 5xx, network, rejected keys,
    /// a body that is not a snapshots map or has an entry of the wrong shape): that is the broker's
    /// failure, not a verdict on the symbols in it.
    public func quotes(for symbols: [String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        let spellings = SymbolSpellings(symbols)
        var results = spellings.rejected
        let canonicalOrder = spellings.canonicalOrder
        guard !canonicalOrder.isEmpty else { return results }

        let batches = stride(from: 0, to: canonicalOrder.count, by: Self.symbolsPerRequest).map {
            Array(canonicalOrder[$0..<min($0 + Self.symbolsPerRequest, canonicalOrder.count)])
        }
        let outcomes = await BoundedConcurrency.results(
            for: batches, limit: Self.maxConcurrentRequests, endsBatch: { _ in true }
        ) { batch throws(BrokerError) in
            try await gate.perform { () async throws(BrokerError) in try await snapshots(for: batch) }
        }
        if Task.isCancelled { throw .cancelled }
        if let failure = PerSymbolQuotes.failedRequest(in: outcomes) { throw failure }
        for (batch, outcome) in zip(batches, outcomes) {
            guard case .success(let snapshots) = outcome else { continue }
            for canonical in batch {
                for spelling in spellings.spellings(of: canonical) {
                    results[spelling] = AlpacaQuoteAdapter.quote(symbol: spelling, entry: snapshots.entries[canonical])
                }
            }
        }
        return results
    }

    /// One snapshots request. An entry of the wrong shape means the body is not what Alpaca documents, so
    /// the request failed: its symbols are asked for again, never marked by it.
    private func snapshots(for batch: [String]) async throws(BrokerError) -> AlpacaSnapshots {
        let snapshots = try await perform(factory.snapshots(batch))
        for canonical in batch {
            if case .undecodable(let reason) = snapshots.entries[canonical] {
                throw .badResponse("alpaca: unexpected response: the snapshot for \(VisibleText.escaped(canonical)): \(reason)")
            }
        }
        return snapshots
    }

    /// The trading account's cash, buying power and equity.
    public func balances() async throws(BrokerError) -> [AccountBalance] {
        let account = try await perform(factory.account())
        return [AccountBalance(accountID: account.displayName, cash: account.cash, buyingPower: account.buyingPower, equity: account.equity)]
    }

    /// The account number the keys belong to (`GET /v2/account`).
    public func validateCredentials() async throws(BrokerError) -> String {
        try await perform(factory.account()).displayName
    }

    /// Sends through the one servicer, maps Alpaca's error bodies, decodes; every error is scrubbed of the
    /// key values (`AlpacaExchange`).
    private func perform<T>(_ built: Result<Request<T>, RequestConstructionError>) async throws(BrokerError) -> T {
        try await exchange.perform(built)
    }
}
