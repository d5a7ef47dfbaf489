import Domain
import Synchronization

/// `ReferenceHub` fed the way the ADR describes: a reader task makes one actor call per quote.
final class ReferenceHubRig: HubRig {
    let session: BenchQuoteSession
    let probes: [SubscriberProbe]
    private let hub: ReferenceHub
    private let reader: Task<Void, Never>
    private let consumed: SharedCounter
    private let consumers: [Task<Void, Never>]
    private let finishedConsumers: SharedCounter

    private init(
        session: BenchQuoteSession, probes: [SubscriberProbe], hub: ReferenceHub, reader: Task<Void, Never>,
        consumed: SharedCounter, consumers: [Task<Void, Never>], finishedConsumers: SharedCounter
    ) {
        self.session = session
        self.probes = probes
        self.hub = hub
        self.reader = reader
        self.consumed = consumed
        self.consumers = consumers
        self.finishedConsumers = finishedConsumers
    }

    static func start(_ options: RigOptions) async -> ReferenceHubRig {
        let hub = ReferenceHub()
        let session = BenchQuoteSession(capacity: options.sessionCapacity)
        let symbols = Set(options.shape.symbols)
        let symbolIndexes = Array(0..<options.shape.symbolCount)
        let delay = consumerLoopDelay(options)
        let finished = SharedCounter()
        var probes: [SubscriberProbe] = []
        var consumers: [Task<Void, Never>] = []
        for _ in 0..<options.shape.subscriberCount {
            let stream = await hub.subscribe(symbols: symbols)
            let probe = SubscriberProbe(
                symbolIndexes: symbolIndexes, symbolCount: options.shape.symbolCount,
                recordsLatency: options.recordsLatency, countdown: options.countdown)
            probes.append(probe)
            consumers.append(Task { [finished] in
                for await quote in stream {
                    probe.record(CollectionOfOne(quote))
                    if let delay { try? await Task.sleep(for: delay) }
                }
                finished.increment()
            })
        }
        let consumed = SharedCounter()
        let reader = Task { [consumed] in
            do {
                for try await event in session.events {
                    guard case .quote(let quote) = event else { continue }
                    await hub.publish(quote)
                    consumed.increment()
                }
            } catch {}
        }
        return ReferenceHubRig(
            session: session, probes: probes, hub: hub, reader: reader, consumed: consumed, consumers: consumers,
            finishedConsumers: finished)
    }

    func settle(after report: ProducerReport, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        let ingestedAll = await waitUntil(timeout: timeout) { consumed.current >= report.accepted }
        // Subscribers keep what their buffers hold; finishing lets them read it to the end.
        await hub.finishAll()
        _ = await waitUntil(timeout: max(.milliseconds(100), deadline - ContinuousClock.now)) {
            finishedConsumers.current == consumers.count
        }
        return ingestedAll
    }

    func tearDown() async {
        reader.cancel()
        session.feed.finish()
        await hub.finishAll()
        _ = await waitUntil(timeout: .seconds(2)) { finishedConsumers.current == consumers.count }
        for consumer in consumers { consumer.cancel() }
    }
}
