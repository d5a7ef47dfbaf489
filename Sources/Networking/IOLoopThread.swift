import Foundation
import Locking

/// Starts a connection's I/O loop on a thread of its own and waits until the loop says whether the
/// connection was established, as both protocol clients do (WebSocket, NATS): the loop owns the socket
/// from then on, and cancelling the waiting task asks it, through `cancel`, to give up.
enum IOLoopThread {
    /// `body` runs on the new thread for the connection's whole life; it calls `established` once.
    static func start<Failure: Error>(
        named name: String,
        cancel: @escaping @Sendable () -> Void,
        body: @escaping @Sendable (_ established: @escaping (Result<Void, Failure>) -> Void) -> Void
    ) async -> Result<Void, Failure> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, Failure>, Never>) in
                let thread = Thread {
                    KernelThreadName.setForCurrentThread(name)
                    body { continuation.resume(returning: $0) }
                }
                thread.name = name
                thread.start()
            }
        } onCancel: {
            cancel()
        }
    }
}
