import Domain
import Foundation

/// A fake broker for demo mode: answers quotes from the seeded `DemoMarket` after its profile's
/// latency, and streams them every market tick.
public struct DemoBroker: QuoteService, StreamingQuoteService {
    public let branding: ServiceBranding
    public let profile: DemoBrokerProfile
    public let settings: DemoBrokerSettings
    /// When a flaky broker's feed is down, counted from the tick it was made on; nil if it never is.
    public let outages: DemoOutageSchedule?
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date

    /// `clock` is what latency and stream ticks sleep on; `now` says which market tick it is and
    /// stamps the quotes. Tests inject both.
    public init(
        profile: DemoBrokerProfile, settings: DemoBrokerSettings = DemoBrokerSettings(),
        clock: any Clock<Duration> = ContinuousClock(), now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.branding = profile.branding
        self.profile = profile
        self.settings = settings
        self.clock = clock
        self.now = now
        let originTick = DemoMarket.tick(at: now(), interval: settings.effectiveTickInterval)
        self.outages = profile.outages.map {
            DemoOutageSchedule(plan: $0, brokerID: profile.branding.id, originTick: originTick, seed: settings.seed)
        }
    }

    /// What a connection attempt during an outage fails with; the hub retries it with backoff.
    static let outageError = BrokerError.network("demo feed unreachable")

    /// Waits the profile's latency, then quotes every symbol at the current tick; symbols the profile
    /// rejects come back as `.unknownSymbol`. Throws only `.cancelled`.
    public func quotes(for symbols: [String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        do {
            try await clock.sleep(for: profile.latency)
        } catch {
            throw .cancelled
        }
        let timestamp = now()
        let tick = DemoMarket.tick(at: timestamp, interval: settings.effectiveTickInterval)
        var results: [String: Result<CommonQuote, BrokerError>] = [:]
        for symbol in symbols {
            results[symbol] = profile.rejects.contains(symbol)
                ? .failure(.unknownSymbol(symbol))
                : .success(DemoMarket.quote(symbol: symbol, profile: profile, tick: tick, seed: settings.seed, timestamp: timestamp))
        }
        return results
    }

    /// Opens a connection that is live at once, except during the broker's outages, when it fails with
    /// `outageError`. A connection drops when the next outage starts.
    public func openSession() async throws(BrokerError) -> any QuoteStreamSession {
        let startTick = DemoMarket.tick(at: now(), interval: settings.effectiveTickInterval)
        if let outages, outages.isDown(at: startTick) { throw Self.outageError }
        // Opening the existential needs a local: Swift 6.3 does not open a stored property in place.
        let clock = self.clock
        return openSession(ticking: clock, startTick: startTick)
    }

    /// Opens the existential clock, so the session can keep the clock's own `Instant` deadlines.
    private func openSession(ticking clock: some Clock<Duration>, startTick: Int) -> DrivenQuoteStreamSession<DemoQuoteStreamSession.Connection> {
        DemoQuoteStreamSession.open(profile: profile, settings: settings, outages: outages, startTick: startTick, clock: clock, now: now)
    }
}
