import Domain
import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the producer does: quotes round-robin over `symbols`, flat out or at a steady rate, for a while.
struct ProducerPlan: Sendable {
    enum Pace: Sendable {
        /// As fast as the session accepts; a full buffer makes the producer retry, never skip a quote.
        case flatOut
        case steady(perSecond: Double)
    }

    var symbols: [String]
    var pace: Pace
    var duration: Duration

    var nanoseconds: UInt64 {
        UInt64(duration.wholeNanoseconds)
    }
}

/// What the producer handed in.
struct ProducerReport: Sendable {
    var started: UInt64
    var stopped: UInt64
    var accepted: Int
    /// Quotes still buffered in a bounded session when the window closed: handed in, not yet ingested.
    var backlogAtStop: Int
    /// The last sequence number and hand-in time per symbol index; -1 when a symbol got no quote.
    var finalSequence: [Int64]
    var finalSentAt: [UInt64]
    var heapAtStop: Int?
    var residentAtStop: Int?

    var window: Double { MonotonicTime.seconds(stopped - started) }
    /// Quotes the hub took out of the session per second of the window.
    var ingestPerSecond: Double { Double(accepted - backlogAtStop) / window }
}

/// Feeds a `BenchQuoteSession` from its own thread, like a socket reader, so producing never waits
/// on the hub's executor.
enum QuoteProducer {
    static func run(_ plan: ProducerPlan, into session: BenchQuoteSession) async -> ProducerReport {
        await onDedicatedThread(named: "bench-producer") { produce(plan, into: session) }
    }

    private static func produce(_ plan: ProducerPlan, into session: BenchQuoteSession) -> ProducerReport {
        let symbols = plan.symbols
        var finalSequence = [Int64](repeating: -1, count: symbols.count)
        var finalSentAt = [UInt64](repeating: 0, count: symbols.count)
        var sequence: Int64 = 0
        var symbolIndex = 0
        var remaining = session.capacity ?? Int.max
        let start = MonotonicTime.now()
        let end = start + plan.nanoseconds

        func handIn(at sentAt: UInt64) -> Bool {
            let quote = BenchQuote.make(
                sequence: sequence, symbolIndex: symbolIndex, symbol: symbols[symbolIndex], sentAt: sentAt)
            while true {
                switch session.feed.yield(.quote(quote)) {
                case .enqueued(let left):
                    remaining = left
                    finalSequence[symbolIndex] = sequence
                    finalSentAt[symbolIndex] = sentAt
                    sequence += 1
                    symbolIndex = symbolIndex + 1 == symbols.count ? 0 : symbolIndex + 1
                    return true
                case .dropped:
                    // Full: the hub is behind. Wait a little, as a socket reader would block, and retry
                    // the same quote so none is lost on our side. Spinning instead would take one of the
                    // two cores away from the hub under test. 1,024 buffered quotes outlast the nap.
                    MonotonicTime.sleep(until: MonotonicTime.now() + 20_000)
                    if MonotonicTime.now() >= end { return false }
                case .terminated:
                    return false
                }
            }
        }

        switch plan.pace {
        case .flatOut:
            while true {
                let now = MonotonicTime.now()
                if now >= end || !handIn(at: now) { break }
            }
        case .steady(let perSecond):
            let period = 1e9 / perSecond
            var tick = 0
            while true {
                let due = start + UInt64(Double(tick) * period)
                if due >= end { break }
                MonotonicTime.sleep(until: due)
                if !handIn(at: MonotonicTime.now()) { break }
                tick += 1
            }
        }
        let stopped = MonotonicTime.now()
        let backlog = session.capacity.map { $0 - remaining } ?? 0
        return ProducerReport(
            started: start, stopped: stopped, accepted: Int(sequence), backlogAtStop: max(0, backlog),
            finalSequence: finalSequence, finalSentAt: finalSentAt,
            heapAtStop: HeapGauge.heapBytesInUse(), residentAtStop: HeapGauge.residentBytes()
        )
    }
}
