import Domain
import Foundation
import Locking
import PaperTrading
import TestSupport

/// Everything a broker publishes, kept, so a test can wait for the event it expects. A wait that is
/// never satisfied gives up after `patience` of real time (scaled by `TestTime`) and returns nil, which the test then fails
/// on: a bug must fail the test, not hang the run. In a passing run nothing waits on the timer.
final class PaperEventRecorder: Sendable {
    private struct Waiter {
        let id: Int
        let matches: @Sendable (PaperEvent) -> Bool
        let continuation: CheckedContinuation<PaperEvent?, Never>
    }

    private struct State {
        var events: [PaperEvent] = []
        var waiters: [Waiter] = []
        var nextID = 0
        var ended = false
    }

    private let state = Locked(State())
    static let patience = TestTime.scaled(30.0)

    init(_ events: AsyncStream<PaperEvent>) {
        Task { [self] in
            for await event in events { record(event) }
            let waiters = state.withLock { state in
                state.ended = true
                defer { state.waiters = [] }
                return state.waiters
            }
            waiters.forEach { $0.continuation.resume(returning: nil) }
        }
    }

    var events: [PaperEvent] { state.withLock { $0.events } }

    /// The first event so far or to come that `matches`.
    func first(where matches: @escaping @Sendable (PaperEvent) -> Bool) async -> PaperEvent? {
        await withCheckedContinuation { (continuation: CheckedContinuation<PaperEvent?, Never>) in
            enum Outcome { case found(PaperEvent?), waiting(Int) }
            let outcome = state.withLock { state -> Outcome in
                if let event = state.events.first(where: matches) { return .found(event) }
                if state.ended { return .found(nil) }
                let id = state.nextID
                state.nextID += 1
                state.waiters.append(Waiter(id: id, matches: matches, continuation: continuation))
                return .waiting(id)
            }
            switch outcome {
            case .found(let event): continuation.resume(returning: event)
            case .waiting(let id):
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.patience) { [self] in
                    let waiter = state.withLock { state -> Waiter? in
                        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                        return state.waiters.remove(at: index)
                    }
                    waiter?.continuation.resume(returning: nil)
                }
            }
        }
    }

    /// The fill of order `id`.
    func fill(of id: OrderID) async -> (order: Order, fill: Fill, line: Int)? {
        let event = await first { event in
            if case .filled(let order, _, _) = event { return order.id == id }
            return false
        }
        guard case .filled(let order, let fill, let line)? = event else { return nil }
        return (order, fill, line)
    }

    /// Fills seen so far.
    var fills: [Fill] {
        events.compactMap { event in
            if case .filled(_, let fill, _) = event { return fill }
            return nil
        }
    }

    private func record(_ event: PaperEvent) {
        let ready = state.withLock { state -> [Waiter] in
            state.events.append(event)
            let ready = state.waiters.filter { $0.matches(event) }
            state.waiters.removeAll { $0.matches(event) }
            return ready
        }
        ready.forEach { $0.continuation.resume(returning: event) }
    }
}
