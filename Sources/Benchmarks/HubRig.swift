/// The designs under test.
enum HubDesign: String, Sendable, CaseIterable {
    /// `MarketDataHub`, each subscriber its own `MarketFeedSubscription` read by its own task.
    case ours
    /// `MarketDataHub`, every subscriber a member of one `MarketFeedGroup`: one wake-up per batch.
    case shared
    /// As `shared`, the subscribers dealt into 10 groups, each its own task (shapes of 100 or more).
    case sharedTenGroups = "shared10"
    case reference

    /// Ten groups of one say nothing `shared` does not.
    func applies(to shape: HubShape) -> Bool {
        self != .sharedTenGroups || shape.subscriberCount >= 100
    }
}

/// How a rig is set up for one run.
struct RigOptions: Sendable {
    var shape: HubShape
    /// Bound of the upstream session's buffer; nil for unbounded (paced runs).
    var sessionCapacity: Int?
    var recordsLatency: Bool
    /// Each subscriber spends 1 ms per wake-up, like a UI that draws on every delivery.
    var slowSubscribers: Bool
    /// Counts deliveries for the lockstep fan-out scenario.
    var countdown: DeliveryCountdown? = nil
}

/// A hub with its upstream session and its subscribers (one consumer task and probe each), ready
/// for the producer.
protocol HubRig: Sendable {
    var session: BenchQuoteSession { get }
    var probes: [SubscriberProbe] { get }
    /// Returns once subscribers hold everything they will ever get of what the producer sent, or at
    /// `timeout`. true when the hub took in every quote handed in.
    func settle(after report: ProducerReport, timeout: Duration) async -> Bool
    func tearDown() async
}

extension HubRig {
    func allCurrent(_ report: ProducerReport) -> Bool {
        probes.allSatisfy { $0.isCurrent(with: report.finalSequence) }
    }

    static func consumerLoopDelay(_ options: RigOptions) -> Duration? {
        options.slowSubscribers ? .milliseconds(1) : nil
    }
}

/// Polls `condition` until it holds or `timeout` passes.
func waitUntil(timeout: Duration, poll: Duration = .microseconds(500), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: poll)
    }
    return true
}
