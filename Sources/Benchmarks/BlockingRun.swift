import Foundation
import Locking

/// Runs `operation` in a task and blocks the calling (main) thread until it returns.
///
/// main.swift uses this instead of top-level `await`: an async main leaves the main thread in
/// libdispatch's signal loop (`sigsuspend`), where valgrind 3.19 crashes, and callgrind's instruction
/// counts are the one repeatable measure of the hub on a noisy machine.
func runBlocking<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) -> Result {
    let outcome = Locked<Result?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let result = await operation()
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return outcome.withLock { $0! }
}
