import Domain
import Locking

/// Reads the follower's session as its hub would, and keeps what the bus benchmark measures: for the
/// quotes of the phase under way (sequence numbers `first..<end`, see `BenchQuote`), how many arrived,
/// when the last quote of each symbol did, and each quote's time from the leader's input
/// (`BenchQuote.sentAt`) to here.
final class BusFollowerProbe: Sendable {
    /// What one phase saw.
    struct Phase: Sendable {
        var first: Int64 = 0
        var end: Int64 = 0
        /// The last sequence number of each symbol index in the phase, -1 for none: the follower is
        /// current when each has arrived.
        var finals: [Int64] = []
        var finalsExpected = 0
        var finalsArrived = 0
        var received = 0
        var highestArrived: Int64 = -1
        /// When the last of the finals arrived (monotonic ns); 0 until then.
        var currentAt: UInt64 = 0
        var latencies = LatencyHistogram()

        var isCurrent: Bool { finalsArrived == finalsExpected }
    }

    private struct State {
        var live = false
        var phase = Phase()
    }

    /// The state the reader task and the benchmark share, in a box of its own: the task is made before
    /// the probe is whole.
    private final class Store: Sendable {
        let state = Locked(State())
    }

    private let store = Store()
    private let reader: Task<Void, Never>

    init(_ session: any QuoteStreamSession) {
        let store = store
        reader = Task {
            do {
                for try await event in session.events {
                    let now = MonotonicTime.now()
                    switch event {
                    case .quote(let quote): Self.record(quote, at: now, in: store)
                    case .live: store.state.withLock { $0.live = true }
                    case .retrying: store.state.withLock { $0.live = false }
                    case .symbolFailed, .skippedFrame: break
                    }
                }
            } catch {}
        }
    }

    deinit {
        reader.cancel()
    }

    /// The follower has said the leader is live.
    var isLive: Bool { store.state.withLock { $0.live } }


    /// Starts counting the quotes `first..<end`, whose last per symbol index is `finals`.
    func begin(first: Int64, end: Int64, finals: [Int64]) {
        let expected = finals.count { $0 >= 0 }
        store.state.withLock { $0.phase = Phase(first: first, end: end, finals: finals, finalsExpected: expected) }
    }

    var phase: Phase { store.state.withLock { $0.phase } }

    /// The last quote of every symbol in the phase has arrived.
    var isCurrent: Bool { store.state.withLock { $0.phase.isCurrent } }

    private static func record(_ quote: CommonQuote, at now: UInt64, in store: Store) {
        let sequence = BenchQuote.sequence(of: quote)
        let symbolIndex = BenchQuote.symbolIndex(of: quote)
        let sentAt = BenchQuote.sentAt(of: quote)
        store.state.withLock { state in
            guard sequence >= state.phase.first, sequence < state.phase.end else { return }
            state.phase.received += 1
            state.phase.highestArrived = max(state.phase.highestArrived, sequence)
            if now > sentAt { state.phase.latencies.record(now - sentAt) }
            if state.phase.finals.indices.contains(symbolIndex), state.phase.finals[symbolIndex] == sequence {
                state.phase.finalsArrived += 1
                if state.phase.isCurrent { state.phase.currentAt = now }
            }
        }
    }
}
