import Foundation
import Locking
import Synchronization

/// Lets the lockstep producer sleep until every subscriber has received the quote it just handed in:
/// probes count deliveries, and the one that reaches the target wakes the producer. Blocking, not
/// polling, so neither the instructions callgrind counts nor the CPU time include the producer waiting.
final class DeliveryCountdown: Sendable {
    private let delivered = Atomic<Int>(0)
    private let target = Atomic<Int>(Int.max)
    private let reached = DispatchSemaphore(value: 0)

    /// Called by a probe for every delivery of `count` quotes.
    func add(_ count: Int) {
        let total = delivered.add(count, ordering: .sequentiallyConsistent).newValue
        if total == target.load(ordering: .sequentiallyConsistent) { reached.signal() }
    }

    /// Sets the total to wait for; call before handing in the quote that will reach it, so no
    /// delivery can count towards it first.
    func expect(_ total: Int) {
        target.store(total, ordering: .sequentiallyConsistent)
    }

    /// false when `total` was not reached within `timeout` (a hub that lost a delivery).
    func wait(timeout: Duration) -> Bool {
        reached.wait(timeout: .now() + timeout.secondsValue) == .success
    }
}
