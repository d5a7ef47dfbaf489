import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Blocking work (spawning and reaping a process, waiting on a pipe, polling with sleeps) on a thread of
/// its own, awaited without holding a thread.
///
/// Not `DispatchQueue.global().async`: on Linux Swift's global executor *is* Dispatch's default-QoS root
/// queue, so a blocked Dispatch worker is a blocked cooperative-pool thread (two on two cores), and every
/// other test in the process waits for it. Backtraces of stalled runs showed pool threads in
/// `PythonPeer.readLine` (poll) and `Subprocess.run` (wait4) under `DispatchQueue.global().async`.
public enum DedicatedThread {
    /// Runs `work` on a new thread and suspends until it returns.
    public static func run<Value: Sendable, Failure: Error>(
        _ name: String, _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            start(name) {
                do throws(Failure) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Starts `work` and returns at once: clean-up from a `deinit`, which cannot await. At exit the
    /// process waits (at most `exitGrace`) for such work still running, so the last test's child process
    /// is still reaped and its tmux server still killed.
    public static func detach(_ name: String, _ work: @escaping @Sendable () -> Void) {
        _ = exitHook
        detached.enter()
        start(name) {
            work()
            detached.leave()
        }
    }

    public static let exitGrace: DispatchTimeInterval = .seconds(12 * TestTime.scale)

    // MARK: - Private

    private static let detached = DispatchGroup()

    private static let exitHook: Void = {
        atexit { _ = DedicatedThread.detached.wait(timeout: .now() + DedicatedThread.exitGrace) }
    }()

    private static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }
}
