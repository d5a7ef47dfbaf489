import BrokerAdapters
import Bus
import Domain
import Foundation
import Interactors
import MarketDataHub
import Stores
import TerminalKit

/// The composition root: every broker, the hub and the stores, built once from the command line, the
/// environment and the config file. Nothing else in the app constructs services.
struct AppComposition {
    let config: AppConfig
    let brokers: [ServiceBranding]
    let quoteServices: [any QuoteService]
    let accountServices: [any AccountService]
    let hub: MarketDataHub
    let watchlist: WatchlistStore
    let isDemo: Bool
    /// A header badge shown on every frame while a safety check is off (TLS verification).
    let securityWarning: String?
    /// Things the user should know at start: a corrupt watchlist moved aside, a config warning.
    let notes: [StatusMessage]
    let colorEnabled: Bool
    /// Where the watchlist, the paper ledger and the holdings book live.
    let stateDirectory: String
    /// Real brokers that take orders (sandbox or paper environments unless `trading.allowLive`).
    let tradingBrokers: [RealTradingBroker]
    /// Lots imported with `commonbroker import lots`, shown on the positions screen.
    let holdings: ManualHoldings
    /// The bus, when the config has a `bus` section and real brokers run: each broker's route for the footer.
    let bus: BusLink?
    let routes: BusRouteBoard
    /// The bus sessions of the brokers this process may lead, for `commonbroker relay`, which keeps them
    /// open without a hub.
    let relayed: [AnyStreamingQuoteService]
    /// The screen's frames, for an interactive run: its streams read just before each one.
    let frameClock: FrameClock?
    /// Benchmarks only (`COMMONBROKER_TEST_HISTORY_MINUTES`): rows start with a full price history.
    let historyBackfill: HistoryBackfill?

    /// A real broker that trades, as the trading desk takes it.
    struct RealTradingBroker {
        let broker: TradingBroker
        let services: TradingServices
    }

    struct StartupError: Error, CustomStringConvertible {
        let description: String
    }

    /// `relay`: built for `commonbroker relay`, a pinned leader of every broker it has credentials for.
    /// `frameClock`: the screen's, when there is one (see `ScreenPacedReads`).
    static func build(
        options: RunOptions, environment: [String: String], relay: Bool = false, frameClock: FrameClock? = nil
    ) throws(StartupError) -> AppComposition {
        let paths: AppPaths
        switch AppPaths.resolve(configOption: options.configPath, environment: environment) {
        case .success(let resolved): paths = resolved
        case .failure(let error): throw StartupError(description: error.description)
        }
        var notes: [StatusMessage] = []
        let startedAt = Date()
        let historyBackfill: HistoryBackfill?
        switch HistoryBackfill.from(environment: environment) {
        case .success(let backfill): historyBackfill = backfill
        case .failure(let error): throw StartupError(description: error.description)
        }

        var config: AppConfig
        switch AppConfig.load(using: paths) {
        case .success(let loaded): config = loaded
        case .failure(let error): throw StartupError(description: error.description)
        }
        if let warning = config.credentialExposureWarning(forFileAt: paths.configFile) {
            notes.append(StatusMessage(.warning, warning, at: startedAt))
        }

        // Real brokers from the config (none with --demo); the demo runs when nothing real is enabled, or
        // beside them when the config asks for it.
        var real: [BrokerAssembly.Broker] = []
        if !options.demo, !config.brokers.enabled.isEmpty {
            let servicer = try BrokerAssembly.servicer(options: options, tls: config.tls)
            // A replay sends nothing anywhere, so it needs no keys (see environmentForReplay).
            let brokerEnvironment = options.replayDirectory == nil ? environment : config.environmentForReplay(environment)
            let assembled = BrokerAssembly.build(
                config: config, options: options, environment: brokerEnvironment, servicer: servicer,
                connector: BrokerAssembly.connector(tls: config.tls, frameClock: frameClock))
            real = assembled.brokers
            notes += assembled.notes.map { StatusMessage(.info, $0, at: startedAt) }
            notes += assembled.warnings.map { StatusMessage(.warning, $0, at: startedAt) }
        }
        // Said on every frame, not once: a user must not forget that anyone on the path can read the streams.
        let securityWarning = config.tls.insecureSkipVerify && !real.isEmpty ? "TLS NOT VERIFIED" : nil
        if securityWarning != nil {
            notes.append(StatusMessage(.warning, "tls.insecureSkipVerify is true: certificates are not checked, so anyone on the network path can read and change the streams", at: startedAt))
        }
        let showDemo = real.isEmpty || config.brokers.demo.enabled
        // The demo alone has its own, shorter stale threshold, so its flaky broker's outages show.
        if real.isEmpty { config.staleAfterSeconds = config.brokers.demo.staleAfterSeconds }
        let seed = config.brokers.demo.seed ?? UInt64.random(in: 0...UInt64.max)
        let demoBrokers = showDemo
            ? DemoBrokers.make(settings: DemoBrokerSettings(seed: seed, tickInterval: config.brokers.demo.tickInterval))
            : []
        // On the bus, a broker without credentials here is followed, never asked directly.
        let bus = config.bus.flatMap { section -> BusLink? in
            guard !real.isEmpty else { return nil }
            var settings = section.settings(environment: environment)
            settings.extraCAFile = config.tls.caFile
            if relay { settings.role = .leader }
            if relay || !(environment["COMMONBROKER_BUS_TRACE"] ?? "").isEmpty {
                settings.trace = { StandardError.write("bus: \($0)") }
            }
            return BusLink(settings: settings)
        }
        let routes = BusRouteBoard()
        let asked = bus == nil ? real : real.filter(\.hasCredentials)
        let quoteServices: [any QuoteService] = asked.map(\.quoteService) + demoBrokers
        let relayed: [AnyStreamingQuoteService]
        let realStreams = real.map { broker in
            guard let bus else { return broker.stream }
            return AnyStreamingQuoteService(BusQuoteService(
                branding: broker.stream.branding, link: bus, upstream: broker.hasCredentials ? broker.stream : nil, routes: routes))
        }
        relayed = bus == nil ? [] : zip(real, realStreams).filter { $0.0.hasCredentials }.map(\.1)
        let streams = realStreams + demoBrokers.map { AnyStreamingQuoteService($0) }
        let hub = MarketDataHub(services: streams, snapshotSources: quoteServices, randomSeed: seed)

        let watchlist: WatchlistStore
        if let symbols = options.symbols {
            watchlist = WatchlistStore(file: nil, seed: symbols)
        } else {
            watchlist = WatchlistStore(file: WatchlistFile(directory: URL(fileURLWithPath: paths.stateDirectory)), seed: config.symbols)
        }
        do {
            if let note = try watchlist.load() { notes.append(StatusMessage(.warning, note.description, at: startedAt)) }
        } catch {
            throw StartupError(description: error.description)
        }

        return AppComposition(
            config: config,
            brokers: streams.map(\.branding),
            quoteServices: quoteServices,
            accountServices: real.compactMap(\.accountService),
            hub: hub,
            watchlist: watchlist,
            isDemo: showDemo,
            securityWarning: securityWarning,
            notes: notes,
            colorEnabled: config.usesColor(noColorOption: options.noColor, environment: environment),
            stateDirectory: paths.stateDirectory,
            tradingBrokers: real.compactMap(\.trading),
            holdings: ManualHoldings(file: ManualHoldingsFile(directory: URL(fileURLWithPath: paths.stateDirectory))),
            bus: bus,
            routes: routes,
            relayed: relayed,
            frameClock: frameClock,
            historyBackfill: historyBackfill
        )
    }
}
