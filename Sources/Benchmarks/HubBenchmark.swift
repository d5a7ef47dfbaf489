import Domain
import MarketDataHub

/// Our hub, per subscriber and with shared wake-ups, against the reference, on the same producer,
/// shapes and rates.
struct HubBenchmark: Sendable {
    enum Scenario: String, Sendable, CaseIterable {
        case ingest, latency, fanout, slow, memory
    }

    var runs = 3
    var ingestWindow: Duration = .milliseconds(1500)
    var latencyWindow: Duration = .seconds(1)
    var rates: [Double] = [100, 1_000, 10_000]
    /// Deliveries per lockstep fan-out run (quotes × subscribers).
    var fanOutDeliveries = 50_000
    var shapes = HubShape.all
    var scenarios = Set(Scenario.allCases)
    var designs = HubDesign.allCases
    /// Upstream buffer during flat-out runs: small against a run's total, so "handed in" is "ingested".
    var sessionCapacity = 1_024
    var log: @Sendable (String) -> Void = { _ in }

    static let slowRate: Double = 10_000

    func run() async -> Figures {
        var figures = Figures()
        for shape in shapes {
            for run in 1...runs where scenarios.contains(.ingest) {
                for design in designs where design.applies(to: shape) {
                    log("hub \(shape.label) \(design.rawValue) max ingest, run \(run)")
                    await maxIngest(design, shape, into: &figures)
                }
            }
            for run in 1...runs where scenarios.contains(.fanout) {
                for design in designs where design.applies(to: shape) {
                    log("hub \(shape.label) \(design.rawValue) lockstep fan-out, run \(run)")
                    await fanOut(design, shape, into: &figures)
                }
            }
            for rate in rates where scenarios.contains(.latency) {
                for run in 1...runs {
                    for design in designs where design.applies(to: shape) {
                        log("hub \(shape.label) \(design.rawValue) latency at \(Int(rate))/s, run \(run)")
                        await latency(design, shape, rate: rate, into: &figures)
                    }
                }
            }
        }
        for run in 1...runs where scenarios.contains(.slow) {
            for design in designs where design != .sharedTenGroups {
                log("hub slow subscriber \(design.rawValue), run \(run)")
                await slowSubscriber(design, into: &figures)
            }
        }
        for design in designs where scenarios.contains(.memory) && design != .sharedTenGroups {
            for (subscribers, symbols) in [(1_000, 1), (100, 100)] {
                for run in 1...runs {
                    log("hub memory \(design.rawValue) \(subscribers) subscribers x \(symbols) symbols, run \(run)")
                    let perSubscription = await subscriptionMemory(design, subscribers: subscribers, symbols: symbols)
                    figures.add("hub.memory.\(design.rawValue).\(subscribers)subscribersx\(symbols)symbols.bytesPerSubscription", perSubscription)
                }
            }
        }
        return figures
    }

    private func makeRig(_ design: HubDesign, _ options: RigOptions) async -> any HubRig {
        switch design {
        case .ours:
            guard let rig = await OurHubRig.start(options) else {
                fatalError("MarketDataHub never subscribed the bench upstream to \(options.shape.symbols.prefix(3))…")
            }
            return rig
        case .shared, .sharedTenGroups:
            guard let rig = await SharedHubRig.start(options, groupCount: design == .shared ? 1 : 10) else {
                fatalError("MarketDataHub never subscribed the bench upstream to \(options.shape.symbols.prefix(3))…")
            }
            return rig
        case .reference:
            return await ReferenceHubRig.start(options)
        }
    }

    // MARK: Scenarios

    private func maxIngest(_ design: HubDesign, _ shape: HubShape, into figures: inout Figures) async {
        let rig = await makeRig(design, RigOptions(
            shape: shape, sessionCapacity: sessionCapacity, recordsLatency: false, slowSubscribers: false))
        let heapBefore = HeapGauge.heapBytesInUse()
        let residentBefore = HeapGauge.residentBytes()
        let report = await QuoteProducer.run(
            ProducerPlan(symbols: shape.symbols, pace: .flatOut, duration: ingestWindow), into: rig.session)
        _ = await rig.settle(after: report, timeout: .seconds(5))
        let current = rig.allCurrent(report)
        let received = rig.probes.reduce(0) { $0 + $1.snapshot.received }
        await rig.tearDown()

        let name = "hub.\(shape.label).\(design.rawValue).maxIngest"
        figures.add("\(name).quotesPerSecond", report.ingestPerSecond)
        figures.add("\(name).quotesHandedIn", Double(report.accepted))
        figures.add("\(name).everySubscriberCurrent", current)
        // Ours skips intermediate prices on purpose (conflation); the reference loses the newest ones.
        let expected = Double(report.accepted) * Double(shape.subscriberCount)
        figures.add("\(name).notDeliveredPercent", expected > 0 ? 100 * (1 - Double(received) / expected) : nil)
        figures.add("\(name).heapGrowthBytes", difference(report.heapAtStop, heapBefore))
        figures.add("\(name).residentGrowthBytes", difference(report.residentAtStop, residentBefore))
    }

    private func latency(_ design: HubDesign, _ shape: HubShape, rate: Double, into figures: inout Figures) async {
        let rig = await makeRig(design, RigOptions(
            shape: shape, sessionCapacity: nil, recordsLatency: true, slowSubscribers: false))
        let cpuBefore = MonotonicTime.processCPU()
        let report = await QuoteProducer.run(
            ProducerPlan(symbols: shape.symbols, pace: .steady(perSecond: rate), duration: latencyWindow),
            into: rig.session)
        let ingestedAll = await rig.settle(after: report, timeout: .seconds(2))
        let cpu = MonotonicTime.processCPU() - cpuBefore
        let current = rig.allCurrent(report)
        var histogram = LatencyHistogram()
        for probe in rig.probes { histogram.merge(probe.snapshot.latency) }
        await rig.tearDown()

        let name = "hub.\(shape.label).\(design.rawValue).latency.\(Int(rate))"
        figures.add("\(name).p50Microseconds", histogram.percentile(0.50).map { Double($0) / 1_000 })
        figures.add("\(name).p99Microseconds", histogram.percentile(0.99).map { Double($0) / 1_000 })
        figures.add("\(name).maxMicroseconds", Double(histogram.maximum) / 1_000)
        let expected = Double(report.accepted) * Double(shape.subscriberCount)
        figures.add("\(name).deliveredPercent", expected > 0 ? 100 * Double(histogram.count) / expected : nil)
        // Every thread's CPU time (producer and settling polls included) per quote that reached a subscriber.
        figures.add("\(name).cpuNanosecondsPerDelivery", histogram.count > 0 ? Double(cpu) / Double(histogram.count) : nil)
        figures.add("\(name).ingestedEverything", ingestedAll)
        figures.add("\(name).everySubscriberCurrent", current)
    }

    /// One subscriber that spends 1 ms per wake-up, the producer at a steady 10k quotes/s for the window.
    /// "Behind" is the price it shows against the true last price: the moment the producer stops, and
    /// once it has read everything it will ever get.
    /// One quote at a time, each delivered to every subscriber before the next is handed in: what a
    /// delivery costs (CPU, and instructions under callgrind) and how long one quote takes to reach its
    /// last subscriber, with no queue and no conflation in either design. Run it under
    /// `valgrind --tool=callgrind` for instruction counts that do not depend on the machine's noise.
    private func fanOut(_ design: HubDesign, _ shape: HubShape, into figures: inout Figures) async {
        let countdown = DeliveryCountdown()
        let rig = await makeRig(design, RigOptions(
            shape: shape, sessionCapacity: nil, recordsLatency: false, slowSubscribers: false, countdown: countdown))
        let quotes = max(min(fanOutDeliveries, 200), fanOutDeliveries / shape.subscriberCount)
        let outcome = await LockstepProducer.run(
            quotes: quotes, symbols: shape.symbols, subscribers: shape.subscriberCount, countdown: countdown,
            into: rig.session)
        await rig.tearDown()

        let name = "hub.\(shape.label).\(design.rawValue).fanOut"
        guard let outcome else {
            log("hub \(shape.label) \(design.rawValue): a lockstep quote never reached every subscriber")
            figures.add("\(name).complete", false)
            return
        }
        figures.add("\(name).complete", true)
        let deliveries = Double(quotes * shape.subscriberCount)
        figures.add("\(name).cpuNanosecondsPerDelivery", Double(outcome.cpuNanoseconds) / deliveries)
        figures.add("\(name).p50Microseconds", outcome.toLastSubscriber.percentile(0.50).map { Double($0) / 1_000 })
        figures.add("\(name).p99Microseconds", outcome.toLastSubscriber.percentile(0.99).map { Double($0) / 1_000 })
    }

    private func slowSubscriber(_ design: HubDesign, into figures: inout Figures) async {
        let shape = HubShape(symbolCount: 1, subscriberCount: 1)
        let rig = await makeRig(design, RigOptions(
            shape: shape, sessionCapacity: nil, recordsLatency: false, slowSubscribers: true))
        let heapBefore = HeapGauge.heapBytesInUse()
        let report = await QuoteProducer.run(
            ProducerPlan(symbols: shape.symbols, pace: .steady(perSecond: Self.slowRate), duration: latencyWindow),
            into: rig.session)
        let atStop = rig.probes[0].snapshot
        _ = await rig.settle(after: report, timeout: .seconds(4))
        let atEnd = rig.probes[0].snapshot
        await rig.tearDown()

        let name = "hub.slowSubscriber.\(design.rawValue)"
        for (moment, seen) in [("atStop", atStop), ("atEnd", atEnd)] {
            figures.add("\(name).\(moment).quotesBehind", Double(report.finalSequence[0] - seen.lastSequence[0]))
            figures.add("\(name).\(moment).millisecondsBehind",
                        Double(Int64(report.finalSentAt[0]) - Int64(seen.lastSentAt[0])) / 1e6)
        }
        // How long after the last quote was handed in the subscriber showed the value it ended on.
        figures.add("\(name).finalValueShownAfterMilliseconds",
                    Double(Int64(atEnd.lastArrival[0]) - Int64(report.finalSentAt[0])) / 1e6)
        figures.add("\(name).quotesReceived", Double(atEnd.received))
        figures.add("\(name).quotesHandedIn", Double(report.accepted))
        figures.add("\(name).heapGrowthBytes", difference(report.heapAtStop, heapBefore))
    }

    /// Heap bytes per (subscriber, symbol) for `subscribers` subscribers each following `symbols` symbols.
    private func subscriptionMemory(_ design: HubDesign, subscribers: Int, symbols: Int) async -> Double? {
        let names = (0..<symbols).map(BenchQuote.symbol)
        switch design {
        case .ours:
            let broker = BenchStreamingBroker(capacity: nil)
            let hub = MarketDataHub(services: [broker.service])
            // A first subscriber opens the upstream, so only subscriptions are measured.
            let first = await hub.subscribe(symbols: Set(names))
            _ = await broker.session(subscribedTo: Set(names))
            var held: [MarketFeedSubscription] = []
            held.reserveCapacity(subscribers)
            let before = await quietHeap()
            for _ in 0..<subscribers { held.append(await hub.subscribe(symbols: Set(names))) }
            let after = HeapGauge.heapBytesInUse()
            for subscription in held + [first] { await subscription.cancel() }
            await hub.shutdown()
            return difference(after, before).map { $0 / Double(subscribers * symbols) }
        case .shared, .sharedTenGroups:
            // One group holds every member; each member's handler holds what a real one would (here a
            // counter shared by all), so its closure context is counted.
            let broker = BenchStreamingBroker(capacity: nil)
            let hub = MarketDataHub(services: [broker.service])
            let group = await hub.subscribeGroup()
            let calls = SharedCounter()
            let first = await group.join(symbols: Set(names)) { _, _ in calls.increment() }
            _ = await broker.session(subscribedTo: Set(names))
            var held: [MarketFeedGroupMember] = []
            held.reserveCapacity(subscribers)
            let before = await quietHeap()
            for _ in 0..<subscribers {
                held.append(await group.join(symbols: Set(names)) { _, _ in calls.increment() })
            }
            let after = HeapGauge.heapBytesInUse()
            withExtendedLifetime((first, held)) {}
            await group.cancel()
            await hub.shutdown()
            return difference(after, before).map { $0 / Double(subscribers * symbols) }
        case .reference:
            let hub = ReferenceHub()
            let first = await hub.subscribe(symbols: Set(names))
            var held: [AsyncStream<CommonQuote>] = []
            held.reserveCapacity(subscribers)
            let before = await quietHeap()
            for _ in 0..<subscribers { held.append(await hub.subscribe(symbols: Set(names))) }
            let after = HeapGauge.heapBytesInUse()
            withExtendedLifetime((first, held)) {}
            await hub.finishAll()
            return difference(after, before).map { $0 / Double(subscribers * symbols) }
        }
    }

    /// The heap once earlier runs' teardown tasks (unsubscribes, stream terminations) have finished.
    private func quietHeap() async -> Int? {
        try? await Task.sleep(for: .milliseconds(100))
        return HeapGauge.heapBytesInUse()
    }

    private func difference(_ after: Int?, _ before: Int?) -> Double? {
        guard let after, let before else { return nil }
        return Double(after - before)
    }
}
