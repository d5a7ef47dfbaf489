import Locking

/// Wakes one waiting task early, e.g. the polling loop when a symbol is subscribed. A signal sent while
/// nobody waits is kept (at most one), so a wake-up between deciding to wait and waiting is never lost.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Drops a pending signal. Called just before the waiter reads the state the signals announce, so
    /// a signal about a change it is about to see cannot wake it again for nothing.
    func reset() {
        state.withLock { $0.pending = false }
    }

    /// Returns on the next signal (or a pending one), or when the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    // Cancelled before registering: the handler found no waiter to resume.
                    if Task.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
