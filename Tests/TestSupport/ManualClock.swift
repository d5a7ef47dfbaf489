import Dispatch
import Locking

/// A clock that moves only when the test advances it (after swift-async-algorithms' `ManualClock`).
/// Tests wait until code under test is asleep on it (`sleepers(atLeast:)`) instead of sleeping
/// themselves, so a tick is processed completely before the next one is released.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        let id: Int
        let count: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Sleeper] = []
        /// Sleeps cancelled before they registered.
        var cancelled: Set<Int> = []
        var watchers: [Watcher] = []

        mutating func makeID() -> Int {
            defer { nextID += 1 }
            return nextID
        }

        mutating func takeSatisfiedWatchers() -> [Watcher] {
            let satisfied = watchers.filter { sleepers.count >= $0.count }
            watchers.removeAll { sleepers.count >= $0.count }
            return satisfied
        }
    }

    private let state = Locked(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// Deadlines of everything asleep on the clock, earliest first.
    /// How many sleeps are pending right now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public var pendingDeadlines: [Instant] {
        state.withLock { $0.sleepers.map(\.deadline).sorted() }
    }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { $0.makeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Registration { case due, cancelled, asleep([Watcher]) }
                let registration = state.withLock { state -> Registration in
                    if state.cancelled.remove(id) != nil { return .cancelled }
                    if deadline <= state.now { return .due }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .asleep(state.takeSatisfiedWatchers())
                }
                switch registration {
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .asleep(let watchers): watchers.forEach { $0.continuation.resume(returning: true) }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due.sorted { $0.deadline < $1.deadline }
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Waits until at least `count` tasks sleep on the clock. False when that has not happened within
    /// `timeout` of real time (scaled by `TestTime`), which only a broken implementation causes; tests fail on it.
    /// The limit is long because a passing wait returns at once, and a new task can queue behind the whole
    /// parallel suite's work: on two cores with other work beside it, every DemoBrokerTests task once took
    /// over 30 s to reach its first sleep.
    public func sleepers(atLeast count: Int = 1, within timeout: Duration = .seconds(120)) async -> Bool {
        let id = state.withLock { $0.makeID() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let enough = state.withLock { state -> Bool in
                guard state.sleepers.count < count else { return true }
                state.watchers.append(Watcher(id: id, count: count, continuation: continuation))
                return false
            }
            if enough {
                continuation.resume(returning: true)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + TestTime.scaled(timeout).timeInterval) { [self] in
                let expired = state.withLock { state -> Watcher? in
                    guard let index = state.watchers.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.watchers.remove(at: index)
                }
                expired?.continuation.resume(returning: false)
            }
        }
    }
}

extension Duration {
    fileprivate var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
