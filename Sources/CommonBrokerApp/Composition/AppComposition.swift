import BrokerAdapters
import Domain
import Foundation
import Interactors
import MarketDataHub
import Stores

/// The composition root: every broker, the hub and the stores, built once from the command line, the
/// environment and the config file. Nothing else in the app constructs services.
struct AppComposition {
    let config: AppConfig
    let brokers: [ServiceBranding]
    let quoteServices: [any QuoteService]
    let hub: MarketDataHub
    let watchlist: WatchlistStore
    let isDemo: Bool
    /// Things the user should know at start: a corrupt watchlist moved aside, a config warning.
    let notes: [StatusMessage]
    let colorEnabled: Bool

    struct StartupError: Error, CustomStringConvertible {
        let description: String
    }

    static func build(options: RunOptions, environment: [String: String]) throws(StartupError) -> AppComposition {
        let paths = AppPaths.resolve(environment: environment, explicitConfigPath: options.configPath)
        var notes: [StatusMessage] = []

        let config: AppConfig
        switch AppConfig.load(from: paths.configFile) {
        case .success(let loaded):
            config = loaded
            if let warning = AppConfig.permissionWarning(forFileAt: paths.configFile, config: loaded) {
                notes.append(StatusMessage(.warning, warning))
            }
        case .failure(let error) where error.isMissingFile && !paths.configFileIsExplicit:
            config = .default
        case .failure(let error):
            throw StartupError(description: error.description)
        }

        // Real brokers arrive with the networking layer; until then a configured one is named, not ignored.
        let configuredRealBrokers = config.enabledRealBrokerNames
        if !configuredRealBrokers.isEmpty {
            notes.append(StatusMessage(.warning, "\(configuredRealBrokers.joined(separator: ", ")) configured, but real brokers are not available in this version yet; showing the demo"))
        }
        let demoBrokers = DemoBrokers.make(settings: DemoBrokerSettings(
            seed: config.demo.seed, tickInterval: .milliseconds(config.demo.tickIntervalMs)
        ))
        let brokers = demoBrokers.map(\.branding)
        let hub = MarketDataHub(services: demoBrokers.map { AnyStreamingQuoteService($0) }, randomSeed: config.demo.seed)

        let watchlist: WatchlistStore
        if let symbols = options.symbols {
            watchlist = WatchlistStore(file: nil, seed: symbols)
        } else {
            watchlist = WatchlistStore(file: WatchlistFile(directory: URL(fileURLWithPath: paths.stateDirectory)), seed: config.symbols)
        }
        do {
            if let note = try watchlist.load() { notes.append(StatusMessage(.warning, note.description)) }
        } catch {
            throw StartupError(description: error.description)
        }

        let noColorEnv = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return AppComposition(
            config: config,
            brokers: brokers,
            quoteServices: demoBrokers,
            hub: hub,
            watchlist: watchlist,
            isDemo: true,
            notes: notes,
            colorEnabled: config.color && !options.noColor && !noColorEnv
        )
    }
}
