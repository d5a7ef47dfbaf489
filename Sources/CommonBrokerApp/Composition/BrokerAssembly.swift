import BrokerAdapters
import Domain
import Foundation
import Networking

/// Builds the real brokers the config enables: one `ServiceContext` each (environment, base URL, the one
/// servicer of this run), the broker's services, and a polling upstream for the hub. All broker
/// construction happens here, once.
struct BrokerAssembly {
    struct Broker {
        var quoteService: any QuoteService
        var accountService: (any AccountService)?
        var stream: AnyStreamingQuoteService
    }

    /// Documented request budgets (reference §1.4, §2.4, §3.1, §4.1), kept a little under the limit.
    static func pollingSettings(for brokerID: String, section: AppConfig.BrokerSection, environment: ServiceEnvironment) -> PollingSettings {
        let interval = section.pollInterval
        switch brokerID {
        case "tradier": return PollingSettings(interval: interval, requestsPerMinute: environment == .sandbox ? 55 : 110, maxSymbolsPerRequest: TradierBroker.maxSymbolsPerRequest)
        case "alpaca": return PollingSettings(interval: interval, requestsPerMinute: 180, maxSymbolsPerRequest: 100)
        case "finnhub": return PollingSettings(interval: interval, requestsPerMinute: 55, maxSymbolsPerRequest: 1)
        case "polygon": return PollingSettings(interval: interval, requestsPerMinute: 5, maxSymbolsPerRequest: 1)
        default: return PollingSettings(interval: interval, requestsPerMinute: 60, maxSymbolsPerRequest: 1)
        }
    }

    /// The servicer for this run: live, live plus recording, or replaying.
    static func servicer(options: RunOptions) throws(AppComposition.StartupError) -> any RequestServicer {
        if let directory = options.replayDirectory {
            do {
                return try ReplayingRequestServicer(directory: URL(fileURLWithPath: directory))
            } catch {
                throw AppComposition.StartupError(description: "cannot replay from \(directory): \(error)")
            }
        }
        let live = URLSessionRequestServicer()
        if let directory = options.recordDirectory {
            do {
                return try RecordingRequestServicer(wrapping: live, directory: URL(fileURLWithPath: directory))
            } catch {
                throw AppComposition.StartupError(description: "cannot record to \(directory): \(error)")
            }
        }
        return live
    }

    static func build(
        config: AppConfig, options: RunOptions, environment: [String: String], servicer: any RequestServicer
    ) -> [Broker] {
        config.brokers.enabled.compactMap { section in
            let deployment = options.environment.flatMap(ServiceEnvironment.init(rawValue:))
                ?? ServiceEnvironment(rawValue: section.environment.rawValue) ?? .production
            var overrides: [String: URL] = [:]
            if let baseURL = section.baseURL {
                overrides[section.id] = baseURL
                // Alpaca keeps accounts on a second host; a local base URL serves both.
                overrides["alpaca-trading"] = section.id == "alpaca" ? baseURL : nil
            }
            let context = ServiceContext(environment: deployment, baseURLOverrides: overrides, servicer: servicer)
            func secret(_ key: String) -> String? { section.credential(key)?.resolved(in: environment) }
            func variable(_ key: String, _ fallback: String) -> String { section.credential(key)?.environmentVariable ?? fallback }

            let quotes: any QuoteService
            var accounts: (any AccountService)?
            switch section.id {
            case "tradier":
                let broker = TradierBroker(context: context, credentials: TradierCredentials(
                    token: secret("token"), tokenVariable: variable("token", "TRADIER_TOKEN")))
                quotes = broker
                accounts = broker
            case "alpaca":
                let broker = AlpacaBroker(context: context, credentials: AlpacaCredentials(
                    keyID: secret("keyId"), secretKey: secret("secretKey"),
                    keyIDVariable: variable("keyId", "APCA_API_KEY_ID"),
                    secretKeyVariable: variable("secretKey", "APCA_API_SECRET_KEY"),
                    feed: section.choice("feed") ?? "iex"))
                quotes = broker
                accounts = broker
            case "finnhub":
                quotes = FinnhubBroker(context: context, credentials: FinnhubCredentials(
                    token: secret("token"), tokenVariable: variable("token", "FINNHUB_TOKEN")))
            case "polygon":
                quotes = PolygonBroker(context: context, credentials: PolygonCredentials(
                    apiKey: secret("apiKey"), apiKeyVariable: variable("apiKey", "POLYGON_API_KEY")))
            default:
                return nil
            }
            let stream = PollingQuoteStream(service: quotes, settings: pollingSettings(for: section.id, section: section, environment: deployment))
            return Broker(quoteService: quotes, accountService: accounts, stream: AnyStreamingQuoteService(stream))
        }
    }
}
