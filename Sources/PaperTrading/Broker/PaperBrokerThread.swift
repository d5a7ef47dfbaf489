import Foundation
import Locking

/// The paper broker's executor: its jobs run one at a time on a thread of their own, so the journal's
/// blocking calls (an `fsync` per append, a `flock` that may wait for another instance) never hold one
/// of the cooperative pool's threads, of which a two-core machine has two for the whole app.
///
/// The thread lives while there is work and ends after `idleLinger` without any: a quiet broker holds
/// no thread, a busy one (quotes every few hundred ms) keeps the one it has.
final class PaperBrokerThread: SerialExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var threadRunning = false
    }

    private let queue = Locked(Queue())
    private let wake = NSCondition()
    private let name: String
    static let idleLinger: TimeInterval = 1

    init(name: String) {
        self.name = name
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let startThread = queue.withLock { queue -> Bool in
            queue.jobs.append(job)
            defer { queue.threadRunning = true }
            return !queue.threadRunning
        }
        if startThread {
            let thread = Thread { [self] in
                KernelThreadName.setForCurrentThread(name)
                run()
            }
            thread.name = name
            thread.start()
        } else {
            wake.lock()
            wake.signal()
            wake.unlock()
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    private func run() {
        let executor = asUnownedSerialExecutor()
        while true {
            let jobs = queue.withLock { queue -> [UnownedJob] in
                defer { queue.jobs.removeAll(keepingCapacity: true) }
                return queue.jobs
            }
            if !jobs.isEmpty {
                for job in jobs { job.runSynchronously(on: executor) }
                continue
            }
            // Nothing queued: wait a little for more, then end unless a job came meanwhile. `enqueue`
            // signals under `wake`'s lock and queues before signalling, so a job is never missed.
            wake.lock()
            let queued = queue.withLock { !$0.jobs.isEmpty }
            if !queued { _ = wake.wait(until: Date(timeIntervalSinceNow: Self.idleLinger)) }
            wake.unlock()
            let ended = queue.withLock { queue -> Bool in
                guard queue.jobs.isEmpty else { return false }
                queue.threadRunning = false
                return true
            }
            if ended { return }
        }
    }
}
