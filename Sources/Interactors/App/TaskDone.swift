import Locking

/// Whether one of the runtime's chained tasks (a change of the followed symbols reaching the feed, a
/// save) has finished: set by the task, read by the runtime before it would await that task.
final class TaskDone: Sendable {
    private let done = Locked(false)

    init() {}

    var isSet: Bool { done.withLock { $0 } }
    func set() { done.withLock { $0 = true } }
}
