import Locking

/// A value that worker threads of a test add to, read once they are joined.
final class LockedBox<Value: Sendable>: Sendable {
    private let value: Locked<Value>

    init(_ value: Value) {
        self.value = Locked(value)
    }

    func update(_ change: (inout Value) -> Void) {
        value.withLock { change(&$0) }
    }

    var current: Value { value.withLock { $0 } }
}
