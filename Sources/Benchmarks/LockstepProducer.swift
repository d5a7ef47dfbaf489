import Foundation

/// What a lockstep run measured: process CPU time across every handed-in quote, and per quote the
/// time from hand-in until its last subscriber had it.
struct LockstepOutcome: Sendable {
    var cpuNanoseconds: UInt64
    var toLastSubscriber: LatencyHistogram
}

/// Hands in one quote, waits until every subscriber has it, then the next: from its own thread, like
/// `QuoteProducer`, so the hub's executor is never blocked.
enum LockstepProducer {
    /// nil when a quote did not reach every subscriber within 5 s.
    static func run(
        quotes: Int, symbols: [String], subscribers: Int, countdown: DeliveryCountdown, into session: BenchQuoteSession
    ) async -> LockstepOutcome? {
        await onDedicatedThread(named: "bench-lockstep") {
            produce(quotes: quotes, symbols: symbols, subscribers: subscribers, countdown: countdown, into: session)
        }
    }

    private static func produce(
        quotes: Int, symbols: [String], subscribers: Int, countdown: DeliveryCountdown, into session: BenchQuoteSession
    ) -> LockstepOutcome? {
        var histogram = LatencyHistogram()
        let cpuBefore = MonotonicTime.processCPU()
        for sequence in 0..<quotes {
            let symbolIndex = sequence % symbols.count
            countdown.expect((sequence + 1) * subscribers)
            let sentAt = MonotonicTime.now()
            let quote = BenchQuote.make(
                sequence: Int64(sequence), symbolIndex: symbolIndex, symbol: symbols[symbolIndex], sentAt: sentAt)
            guard case .enqueued = session.feed.yield(.quote(quote)), countdown.wait(timeout: .seconds(5)) else {
                return nil
            }
            histogram.record(MonotonicTime.now() - sentAt)
        }
        return LockstepOutcome(cpuNanoseconds: MonotonicTime.processCPU() - cpuBefore, toLastSubscriber: histogram)
    }
}
