import Foundation

/// Runs `work` on a thread of its own and returns its result: producers feed the hub like a socket
/// reader would, so they must never block, or be blocked by, the executor under test.
func onDedicatedThread<Result: Sendable>(named name: String, _ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.name = name
        thread.start()
    }
}
