import Domain
import MarketDataHub

/// `MarketDataHub` with its subscribers as members of `MarketFeedGroup`s: one consumer task, one
/// mailbox and one wake-up per batch for each group, every member called in place with its quotes.
/// A probe per member, as in the other rigs, so a delivery is still one (quote, subscriber) pair.
final class SharedHubRig: HubRig {
    let session: BenchQuoteSession
    let probes: [SubscriberProbe]
    private let hub: MarketDataHub
    private let groups: [MarketFeedGroup]
    private let consumers: [Task<Void, Never>]
    private let finishedConsumers: SharedCounter

    private init(
        session: BenchQuoteSession, probes: [SubscriberProbe], hub: MarketDataHub, groups: [MarketFeedGroup],
        consumers: [Task<Void, Never>], finishedConsumers: SharedCounter
    ) {
        self.session = session
        self.probes = probes
        self.hub = hub
        self.groups = groups
        self.consumers = consumers
        self.finishedConsumers = finishedConsumers
    }

    /// The shape's subscribers dealt round-robin into `groupCount` groups (at most one per subscriber);
    /// nil when the hub never subscribed the upstream session.
    static func start(_ options: RigOptions, groupCount: Int) async -> SharedHubRig? {
        let broker = BenchStreamingBroker(capacity: options.sessionCapacity)
        let hub = MarketDataHub(services: [broker.service])
        let symbols = Set(options.shape.symbols)
        let symbolIndexes = Array(0..<options.shape.symbolCount)
        let delay = consumerLoopDelay(options)
        let finished = SharedCounter()
        var groups: [MarketFeedGroup] = []
        var consumers: [Task<Void, Never>] = []
        for _ in 0..<max(1, min(groupCount, options.shape.subscriberCount)) {
            let group = await hub.subscribeGroup()
            groups.append(group)
            consumers.append(Task { [finished] in
                for await _ in group.updates {
                    if let delay { try? await Task.sleep(for: delay) }
                }
                finished.increment()
            })
        }
        var probes: [SubscriberProbe] = []
        for index in 0..<options.shape.subscriberCount {
            let probe = SubscriberProbe(
                symbolIndexes: symbolIndexes, symbolCount: options.shape.symbolCount,
                recordsLatency: options.recordsLatency, countdown: options.countdown)
            probes.append(probe)
            _ = await groups[index % groups.count].join(symbols: symbols) { _, change in
                if case .success(let quote) = change { probe.record(CollectionOfOne(quote)) }
            }
        }
        guard let session = await broker.session(subscribedTo: symbols) else { return nil }
        session.feed.yield(.live)
        return SharedHubRig(
            session: session, probes: probes, hub: hub, groups: groups, consumers: consumers, finishedConsumers: finished)
    }

    func settle(after report: ProducerReport, timeout: Duration) async -> Bool {
        await waitUntil(timeout: timeout) { allCurrent(report) }
    }

    func tearDown() async {
        for group in groups { await group.cancel() }
        await hub.shutdown()
        _ = await waitUntil(timeout: .seconds(2)) { finishedConsumers.current == consumers.count }
        for consumer in consumers { consumer.cancel() }
    }
}
