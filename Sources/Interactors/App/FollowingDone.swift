import Locking

/// Whether one change of the followed symbols has reached the feed: set by the task that made it, read
/// by the runtime before it would await that task.
final class FollowingDone: Sendable {
    private let done = Locked(false)

    init() {}

    var isSet: Bool { done.withLock { $0 } }
    func set() { done.withLock { $0 = true } }
}
