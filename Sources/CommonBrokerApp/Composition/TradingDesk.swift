import BrokerAdapters
import Domain
import Foundation
import Interactors
import PaperTrading
import Stores

/// The brokers that take orders in this run, started once: the paper broker (when the config enables it
/// and its quote source runs) and the real brokers that trade. The interactive screen and `print
/// positions` both start it; `stop()` ends the paper broker's tasks.
struct TradingDesk {
    /// Where orders can go, paper first.
    let brokers: [TradingBroker]
    /// Every source of positions: the brokers above and the holdings kept elsewhere.
    let services: [TradingServices]
    /// What the paper broker does on its own (fills, expiries, ledger notices), for the app's events.
    let activity: AsyncStream<TradingActivity>?
    /// Said on the status line at start (a torn ledger line, a source that does not run).
    let notes: [StatusMessage]
    private let paper: PaperBroker?

    func stop() async {
        await paper?.stop()
    }

    static func start(_ app: AppComposition, now: Date = Date()) async -> TradingDesk {
        var brokers: [TradingBroker] = []
        var services: [TradingServices] = []
        var notes: [StatusMessage] = []
        var paper: PaperBroker?
        var activity: AsyncStream<TradingActivity>?

        let config = app.config.paper
        if config.enabled {
            let running = app.brokers.map(\.id)
            let source = config.source ?? (app.isDemo ? DemoBrokerCatalog.alpha.id : running.first { !$0.hasPrefix("demo-") }) ?? DemoBrokerCatalog.alpha.id
            if running.contains(source) {
                let settings = PaperSettings(
                    ledgerURL: URL(fileURLWithPath: app.stateDirectory).appendingPathComponent("paper-ledger.jsonl"),
                    sourceBrokerID: source,
                    startingCash: config.startingCash,
                    commissionPerShare: config.commissionPerShare,
                    minimumCommissionPerOrder: config.minimumCommission,
                    allowShort: config.allowShort,
                    // The demo's market never closes; a real source's does.
                    session: source.hasPrefix("demo-") ? .aroundTheClock : .usRegularHours)
                do throws(PaperBrokerError) {
                    let broker = try await PaperBroker.start(settings: settings, feed: app.hub)
                    paper = broker
                    brokers.append(TradingBroker(
                        branding: PaperBroker.branding, quoteSourceID: source,
                        commission: .init(perShare: config.commissionPerShare, minimumPerOrder: config.minimumCommission)))
                    services.append(TradingServices(orders: broker, positions: broker, accounts: broker))
                    activity = Self.activity(of: broker)
                } catch {
                    notes.append(StatusMessage(.error, "The paper broker is off: \(error.description)", at: now))
                }
            } else {
                notes.append(StatusMessage(
                    .warning,
                    "The paper broker is off: its quote source \"\(source)\" does not run; set paper.source to one of: \(running.joined(separator: ", "))",
                    at: now))
            }
        }
        for real in app.tradingBrokers {
            brokers.append(real.broker)
            services.append(real.services)
        }
        services.append(TradingServices(orders: nil, positions: app.holdings, accounts: nil))
        return TradingDesk(brokers: brokers, services: services, activity: activity, notes: notes, paper: paper)
    }

    /// The paper broker's events as the app hears them. Position and account revaluations on every quote
    /// are left out: the screens value positions from the quote store themselves.
    private static func activity(of broker: PaperBroker) -> AsyncStream<TradingActivity> {
        let (stream, sink) = AsyncStream<TradingActivity>.makeStream()
        let id = PaperBroker.branding.id
        Task {
            for await event in broker.events {
                switch event {
                case .placed(let order), .triggered(let order), .cancelled(let order), .expired(let order), .rejected(let order):
                    sink.yield(TradingActivity(brokerID: id, order: order))
                case .filled(let order, _, _):
                    sink.yield(TradingActivity(brokerID: id, order: order))
                case .notice(let text):
                    sink.yield(TradingActivity(brokerID: id, change: .notice(text)))
                case .halted(let reason):
                    sink.yield(TradingActivity(brokerID: id, change: .halted(reason)))
                case .positionChanged, .accountChanged:
                    continue
                }
            }
            sink.finish()
        }
        return stream
    }
}
