import Synchronization

/// A count several tasks bump and a waiting one reads.
final class SharedCounter: Sendable {
    private let value = Atomic<Int>(0)

    func increment() { value.add(1, ordering: .relaxed) }
    var current: Int { value.load(ordering: .relaxed) }
}
