import BrokerAdapters
import Domain
import Foundation
import Interactors
import Networking
import TerminalKit

/// Builds the real brokers the config enables: one `ServiceContext` each (environment, base URL, the one
/// servicer of this run), one `BrokerRequestGate` each (the documented request budget and the 429 pause
/// that every quote request of that broker goes through: the start-up snapshot, the poller, a key check),
/// the broker's services, and the hub's upstream: the broker's WebSocket stream, or a polling loop over its
/// REST quotes. All broker construction happens here, once.
struct BrokerAssembly {
    struct Broker {
        var quoteService: any QuoteService
        var accountService: (any AccountService)?
        var stream: AnyStreamingQuoteService
        /// Orders and positions, for brokers whose API takes them.
        var trading: AppComposition.RealTradingBroker? = nil
        /// Every credential it needs is set: it may connect (and lead it on the bus).
        var hasCredentials = true
    }

    /// Documented request budgets (reference §1.4, §2.4, §3.1, §4.1), kept a little under the limit.
    static func pollingSettings(for brokerID: String, section: AppConfig.BrokerSection, environment: ServiceEnvironment) -> PollingSettings {
        let interval = section.pollInterval
        switch brokerID {
        case "tradier": return PollingSettings(interval: interval, requestsPerMinute: environment == .sandbox ? 55 : 110, maxSymbolsPerRequest: TradierBroker.maxSymbolsPerRequest)
        case "alpaca": return PollingSettings(interval: interval, requestsPerMinute: 180, maxSymbolsPerRequest: 100)
        case "finnhub": return PollingSettings(interval: interval, requestsPerMinute: 55, maxSymbolsPerRequest: 1)
        // Polygon's budget is per minute, so the whole of it may go at once (a start-up snapshot of a few
        // symbols, or `print`, need not take a minute); the limiter still allows 5 in any 60 s.
        case "polygon": return PollingSettings(interval: interval, requestsPerMinute: 5, maxSymbolsPerRequest: 1, burst: 5)
        default: return PollingSettings(interval: interval, requestsPerMinute: 60, maxSymbolsPerRequest: 1)
        }
    }

    /// The servicer for this run: live, live plus recording, or replaying. The live one verifies
    /// certificates as the streams do: the system store plus the config's CA file, unless
    /// `tls.insecureSkipVerify`.
    static func servicer(options: RunOptions, tls: AppConfig.TLS) throws(AppComposition.StartupError) -> any RequestServicer {
        if let directory = options.replayDirectory {
            do {
                return try ReplayingRequestServicer(directory: URL(fileURLWithPath: directory))
            } catch {
                throw AppComposition.StartupError(description: "cannot replay from \(directory): \(error)")
            }
        }
        let live = SocketRequestServicer(options: SocketRequestServicer.Options(extraCAFile: tls.caFile, allowInsecureTLS: tls.insecureSkipVerify))
        if let directory = options.recordDirectory {
            do {
                return try RecordingRequestServicer(wrapping: live, directory: URL(fileURLWithPath: directory))
            } catch {
                throw AppComposition.StartupError(description: "cannot record to \(directory): \(error)")
            }
        }
        return live
    }

    /// The WebSocket client every streaming broker shares: TLS settings from the config, and reads paced
    /// by the screen's frames when there is a screen, all made by one thread at each frame's slot. (Should
    /// that thread's wake-up pipe not open, each connection's own thread reads at the slot.)
    static func connector(tls: AppConfig.TLS, frameClock: FrameClock? = nil) -> LiveWebSocketConnector {
        let slotReader = frameClock == nil ? nil : try? WebSocketSlotReader()
        // After a pause the frames fall elsewhere: the reads booked for the old slots look again.
        if let frameClock, let slotReader { frameClock.whenFramesResume { slotReader.slotsMayHaveMoved() } }
        return LiveWebSocketConnector(options: LiveWebSocketConnector.Options(
            extraCAFile: tls.caFile, allowInsecureTLS: tls.insecureSkipVerify, readPacing: frameClock.map(ScreenPacedReads.init),
            slotReader: slotReader))
    }

    /// Whether a broker streams, and if the config asked for a stream it cannot have, why not (for a
    /// start-up note). Recordings hold HTTP exchanges only, so a recording or replaying run polls, as
    /// the README says; Tradier's sandbox has no streaming API.
    static func streamChoice(_ section: AppConfig.BrokerSection, environment: ServiceEnvironment, options: RunOptions) -> (streams: Bool, note: String?) {
        guard section.stream else { return (false, nil) }
        if options.replayDirectory != nil || options.recordDirectory != nil { return (false, nil) }
        if section.id == "tradier" && environment == .sandbox && section.streamURL == nil {
            return (false, "Tradier's sandbox has no streaming API: polling every \(section.pollIntervalSeconds)s")
        }
        return (true, nil)
    }

    static func build(
        config: AppConfig, options: RunOptions, environment: [String: String], servicer: any RequestServicer,
        connector: any WebSocketConnector
    ) -> (brokers: [Broker], notes: [String], warnings: [String]) {
        var notes: [String] = []
        var warnings: [String] = []
        let brokers: [Broker] = config.brokers.enabled.compactMap { section in
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
            let (streams, note) = streamChoice(section, environment: deployment, options: options)
            if let note { notes.append(note) }
            let polling = pollingSettings(for: section.id, section: section, environment: deployment)
            let gate = BrokerRequestGate(settings: polling)

            let quotes: any QuoteService
            var accounts: (any AccountService)?
            var trading: AppComposition.RealTradingBroker?
            let liveTrading = LiveTrading(allowLive: config.trading.allowLive)
            // Orders reach a real account only in production, and only when the config allows it.
            let tradesLive = deployment == .production && config.trading.allowLive && section.baseURL == nil
            func trades(_ broker: some OrderService & PositionService & AccountService) -> AppComposition.RealTradingBroker {
                AppComposition.RealTradingBroker(
                    broker: TradingBroker(branding: broker.branding, isLive: tradesLive),
                    services: TradingServices(orders: broker, positions: broker, accounts: broker))
            }
            var stream: AnyStreamingQuoteService?
            var streamURL: URL?
            switch section.id {
            case "tradier":
                let credentials = TradierCredentials(token: secret("token"), tokenVariable: variable("token", "TRADIER_TOKEN"))
                let broker = TradierBroker(context: context, credentials: credentials, gate: gate, liveTrading: liveTrading)
                quotes = broker
                accounts = broker
                trading = trades(broker)
                if streams {
                    let service = TradierStreamService(connector: connector, url: section.streamURL, context: context, credentials: credentials)
                    stream = AnyStreamingQuoteService(service)
                    streamURL = service.url
                }
            case "alpaca":
                let credentials = AlpacaCredentials(
                    keyID: secret("keyId"), secretKey: secret("secretKey"),
                    keyIDVariable: variable("keyId", "APCA_API_KEY_ID"),
                    secretKeyVariable: variable("secretKey", "APCA_API_SECRET_KEY"),
                    feed: section.choice("feed") ?? "iex")
                let broker = AlpacaBroker(context: context, credentials: credentials, gate: gate, liveTrading: liveTrading)
                quotes = broker
                accounts = broker
                trading = trades(broker)
                if streams {
                    let restBase = section.baseURL ?? (deployment == .sandbox ? AlpacaRequestFactory.dataSandboxURL : AlpacaRequestFactory.dataProductionURL)
                    let url = section.streamURL ?? AlpacaStreamService.url(forBaseURL: restBase, feed: credentials.feed)
                    stream = AnyStreamingQuoteService(AlpacaStreamService(connector: connector, url: url, credentials: credentials))
                    streamURL = url
                }
            case "finnhub":
                let credentials = FinnhubCredentials(token: secret("token"), tokenVariable: variable("token", "FINNHUB_TOKEN"))
                quotes = FinnhubBroker(context: context, credentials: credentials, gate: gate)
                if streams {
                    let url = section.streamURL ?? section.baseURL.map(FinnhubStreamService.url(forBaseURL:)) ?? FinnhubStreamService.defaultURL
                    stream = AnyStreamingQuoteService(FinnhubStreamService(connector: connector, url: url, credentials: credentials))
                    streamURL = url
                }
            case "polygon":
                let credentials = PolygonCredentials(apiKey: secret("apiKey"), apiKeyVariable: variable("apiKey", "POLYGON_API_KEY"))
                quotes = PolygonBroker(context: context, credentials: credentials, gate: gate)
                if streams {
                    let url = section.streamURL ?? section.baseURL.map(PolygonStreamService.url(forBaseURL:)) ?? PolygonStreamService.defaultURL
                    stream = AnyStreamingQuoteService(PolygonStreamService(connector: connector, url: url, credentials: credentials))
                    streamURL = url
                }
            default:
                return nil
            }
            if let streamURL, let warning = unencryptedWarning(streamURL, broker: section.id) { warnings.append(warning) }
            // The broker paces itself through its gate; a limiter of the poller's own would count twice.
            let upstream = stream ?? AnyStreamingQuoteService(PollingQuoteStream(service: quotes, settings: polling, rateLimiter: nil))
            return Broker(
                quoteService: quotes, accountService: accounts, stream: upstream, trading: trading,
                hasCredentials: section.missingCredentials(in: environment).isEmpty)
        }
        return (brokers, notes, warnings)
    }

    /// A `ws://` stream to another machine carries the broker's credentials in clear text; a local fixture
    /// or proxy on loopback does not leave the machine.
    static func unencryptedWarning(_ url: URL, broker: String) -> String? {
        guard url.scheme?.lowercased() == "ws", let host = url.host?.lowercased() else { return nil }
        let loopback = host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
        return loopback ? nil : "\(broker)'s stream \(host) is unencrypted (ws://): its credentials cross the network in clear text; use wss://"
    }
}
