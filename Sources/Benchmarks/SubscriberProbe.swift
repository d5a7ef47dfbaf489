import Domain
import Locking

/// What one benchmark subscriber has seen: the newest sequence per symbol, how many quotes reached it,
/// and (when asked) the latency of each from hand-in to arrival. Only its consumer task writes it.
final class SubscriberProbe: Sendable {
    struct Seen: Sendable {
        var received = 0
        /// Per symbol index: the newest sequence number seen, -1 before any.
        var lastSequence: [Int64]
        var lastSentAt: [UInt64]
        /// When each symbol's newest quote arrived here.
        var lastArrival: [UInt64]
        var latency = LatencyHistogram()
    }

    let symbolIndexes: [Int]
    let recordsLatency: Bool
    private let countdown: DeliveryCountdown?
    private let seen: Locked<Seen>

    init(symbolIndexes: [Int], symbolCount: Int, recordsLatency: Bool, countdown: DeliveryCountdown? = nil) {
        self.symbolIndexes = symbolIndexes
        self.recordsLatency = recordsLatency
        self.countdown = countdown
        seen = Locked(Seen(
            lastSequence: Array(repeating: -1, count: symbolCount),
            lastSentAt: Array(repeating: 0, count: symbolCount),
            lastArrival: Array(repeating: 0, count: symbolCount)))
    }

    /// One delivery: a batch from our hub, a single quote from the reference.
    func record(_ quotes: some Collection<CommonQuote>) {
        let now = MonotonicTime.now()
        let recordsLatency = recordsLatency
        seen.withLock { seen in
            for quote in quotes {
                let index = BenchQuote.symbolIndex(of: quote)
                let sequence = BenchQuote.sequence(of: quote)
                let sentAt = BenchQuote.sentAt(of: quote)
                seen.received += 1
                if sequence > seen.lastSequence[index] {
                    seen.lastSequence[index] = sequence
                    seen.lastSentAt[index] = sentAt
                    seen.lastArrival[index] = now
                }
                if recordsLatency, now > sentAt { seen.latency.record(now - sentAt) }
            }
        }
        countdown?.add(quotes.count)
    }

    var snapshot: Seen { seen.withLock { $0 } }

    /// Holds the newest quote of every symbol it follows that the producer sent.
    func isCurrent(with finalSequence: [Int64]) -> Bool {
        seen.withLock { seen in
            symbolIndexes.allSatisfy { finalSequence[$0] < 0 || seen.lastSequence[$0] == finalSequence[$0] }
        }
    }
}
