#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A task executor with one thread of its own, which runs every job enqueued on it in order.
///
/// The interactive app runs the market-data path on one (`PreferredTaskExecutor`): the streams'
/// decoding tasks and the hub's upstream readers, and so the hub. On the cooperative pool each decoded
/// batch handed to the hub enqueued a job that the pool gave to its other thread, waking it with a
/// futex (about 7.7 thread switches per isolated price in all, each tens of microseconds on a virtual
/// machine). Here a hop made on this thread is a queue append, and the thread is woken only by work from
/// outside (a socket's I/O thread, a timer).
///
/// It is a serial executor too, so an actor can live on it (the app's update loop, `AppRuntime`): the
/// hub's delivery to that actor is then a queue append as well, where on the pool it woke a pool thread
/// for every batch. Every job runs isolated to this executor and preferring it as task executor, the
/// pairing the runtime asks of an executor that is both.
///
/// Jobs must not block for long: the thread is the path's only one. The thread lives as long as the
/// executor; the app keeps one for the whole run.
public final class DedicatedThreadExecutor: TaskExecutor, SerialExecutor, @unchecked Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var sleeping = false
    }

    /// The queue and the thread's sleep are under the one condition's lock, so a job enqueued between
    /// the thread's look and its wait is never missed.
    private let condition = NSCondition()
    private var queue = Queue()

    public init(name: String) {
        let thread = Thread { [self] in
            KernelThreadName.setForCurrentThread(name)
            run()
        }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        queue.jobs.append(job)
        // A job enqueued from this thread (a task resuming another) finds it awake: no signal, no syscall.
        let wake = queue.sleeping
        if wake { queue.sleeping = false }
        condition.unlock()
        if wake { condition.signal() }
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    private func run() {
        let executor = asUnownedTaskExecutor(), serial = asUnownedSerialExecutor()
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while queue.jobs.isEmpty {
                queue.sleeping = true
                condition.wait()
            }
            queue.sleeping = false
            swap(&batch, &queue.jobs)
            condition.unlock()
            for job in batch { job.runSynchronously(isolatedTo: serial, taskExecutor: executor) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
