extension Locked where Value: ~Copyable {
    /// The waiting half of a queue with one consumer (`NATSMailbox`, `QuoteEvents`): parks the calling
    /// task, on `actor`, until a producer resumes the continuation that `park` left in the value.
    ///
    /// `park` runs under the lock: it stores the continuation and returns true, or returns false when
    /// there is something to take after all (it came between the caller's look and this), and the task
    /// goes on at once. Cancelling the task calls `onCancel`, which must end the queue and resume the
    /// continuation it finds stored. A task already cancelled does not park: `onCancel` runs and the
    /// result is false.
    @inlinable
    public func parkConsumer(
        isolation actor: isolated (any Actor)?,
        onCancel: @escaping @Sendable () -> Void,
        park: (inout Value, UnsafeContinuation<Void, Never>) -> Bool
    ) async -> Bool {
        if Task.isCancelled {
            onCancel()
            return false
        }
        await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Void, Never>) in
                if !withLock({ park(&$0, continuation) }) { continuation.resume() }
            }
        } onCancel: {
            onCancel()
        }
        return true
    }
}
