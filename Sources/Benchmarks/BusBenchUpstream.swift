import Domain
import Locking

/// The broker the bus benchmark's leader connects to: each session it opens is a `BenchQuoteSession`
/// (live at once), which the benchmark's producer feeds from its own thread as a socket reader would.
final class BusBenchUpstream: Sendable {
    let branding = ServiceBranding(id: "benchbroker", name: "Bench Broker", glyph: "B", color: .blue)
    /// Room for a flat-out producer to run ahead of the leader; a full session makes it wait.
    let capacity: Int
    private let current = Locked<BenchQuoteSession?>(nil)

    init(capacity: Int = 4_096) {
        self.capacity = capacity
    }

    var service: AnyStreamingQuoteService {
        AnyStreamingQuoteService(branding: branding) { () async throws(BrokerError) -> any QuoteStreamSession in
            self.open()
        }
    }

    /// The session the leader has open, if any.
    var session: BenchQuoteSession? { current.withLock { $0 } }

    var subscribed: Set<String> { session?.subscribedSymbols ?? [] }

    private func open() -> BenchQuoteSession {
        let session = BenchQuoteSession(capacity: capacity)
        session.feed.yield(.live)
        current.withLock { $0 = session }
        return session
    }
}
