import Domain
import MarketDataHub
import Synchronization

/// `MarketDataHub` as the app builds it, with one `BenchStreamingBroker` upstream.
final class OurHubRig: HubRig {
    let session: BenchQuoteSession
    let probes: [SubscriberProbe]
    private let hub: MarketDataHub
    private let subscriptions: [MarketFeedSubscription]
    private let consumers: [Task<Void, Never>]
    private let finishedConsumers: SharedCounter

    private init(
        session: BenchQuoteSession, probes: [SubscriberProbe], hub: MarketDataHub,
        subscriptions: [MarketFeedSubscription], consumers: [Task<Void, Never>], finishedConsumers: SharedCounter
    ) {
        self.session = session
        self.probes = probes
        self.hub = hub
        self.subscriptions = subscriptions
        self.consumers = consumers
        self.finishedConsumers = finishedConsumers
    }

    /// nil when the hub never subscribed the upstream session (a bug worth stopping for).
    static func start(_ options: RigOptions) async -> OurHubRig? {
        let broker = BenchStreamingBroker(capacity: options.sessionCapacity)
        let hub = MarketDataHub(services: [broker.service])
        let symbols = Set(options.shape.symbols)
        let symbolIndexes = Array(0..<options.shape.symbolCount)
        let delay = consumerLoopDelay(options)
        let finished = SharedCounter()
        var subscriptions: [MarketFeedSubscription] = []
        var probes: [SubscriberProbe] = []
        var consumers: [Task<Void, Never>] = []
        for _ in 0..<options.shape.subscriberCount {
            let subscription = await hub.subscribe(symbols: symbols)
            let probe = SubscriberProbe(
                symbolIndexes: symbolIndexes, symbolCount: options.shape.symbolCount,
                recordsLatency: options.recordsLatency, countdown: options.countdown)
            subscriptions.append(subscription)
            probes.append(probe)
            consumers.append(Task { [finished] in
                for await batch in subscription.updates {
                    probe.record(batch.quotes.values)
                    if let delay { try? await Task.sleep(for: delay) }
                }
                finished.increment()
            })
        }
        guard let session = await broker.session(subscribedTo: symbols) else { return nil }
        session.feed.yield(.live)
        return OurHubRig(
            session: session, probes: probes, hub: hub, subscriptions: subscriptions, consumers: consumers,
            finishedConsumers: finished)
    }

    func settle(after report: ProducerReport, timeout: Duration) async -> Bool {
        // The hub has no "ingested" counter to ask; subscribers holding the last quotes is the proof.
        await waitUntil(timeout: timeout) { allCurrent(report) }
    }

    func tearDown() async {
        for subscription in subscriptions { await subscription.cancel() }
        await hub.shutdown()
        _ = await waitUntil(timeout: .seconds(2)) { finishedConsumers.current == consumers.count }
        for consumer in consumers { consumer.cancel() }
    }
}
