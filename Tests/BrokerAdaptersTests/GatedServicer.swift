import Domain
import Foundation
import Locking
import Networking

/// Holds every request until `batch` of them are waiting (or the last expected one arrived), then lets
/// them all through, so the most requests a caller ever has in flight is observable without sleeping.
/// A caller that never reaches `batch` concurrent requests would wait forever: tests using this carry a
/// time limit.
final class GatedServicer: RequestServicer {
    private struct State {
        var parked: [CheckedContinuation<Void, Never>] = []
        var arrived = 0
        var inFlight = 0
        var maxInFlight = 0
    }

    let inner: any RequestServicer
    let batch: Int
    let expected: Int
    private let state = Locked(State())

    init(inner: any RequestServicer, batch: Int, expected: Int) {
        self.inner = inner
        self.batch = batch
        self.expected = expected
    }

    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    var arrived: Int { state.withLock { $0.arrived } }

    func send(_ request: HTTPRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let released: [CheckedContinuation<Void, Never>] = state.withLock { state in
                state.arrived += 1
                state.inFlight += 1
                state.maxInFlight = max(state.maxInFlight, state.inFlight)
                state.parked.append(continuation)
                guard state.parked.count == batch || state.arrived == expected else { return [] }
                defer { state.parked = [] }
                return state.parked
            }
            for parked in released { parked.resume() }
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        return try await inner.send(request, secretNames: secretNames)
    }
}
