import Foundation
@testable import Locking
import Testing
#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
/// The interactive app's market-data executor: one thread, every job on it in order, and the tasks the
/// market-data path starts under the task-local find it.
@Suite struct DedicatedThreadExecutorTests {
    /// The calling thread's name as the kernel has it (what `KernelThreadName` set).
    private static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
    }

    private actor Counter {
        var count = 0
        func bump() -> String {
            count += 1
            return DedicatedThreadExecutorTests.threadName()
        }
    }

    @Test func aTaskThatPrefersItStaysOnItsThreadAcrossEverySuspension() async {
        let executor = DedicatedThreadExecutor(name: "cb test market")
        let counter = Counter()
        let names = await Task(executorPreference: executor) { () -> [String] in
            var names = [Self.threadName()]
            await Task.yield()
            names.append(Self.threadName())
            // A default actor runs where the task prefers.
            names.append(await counter.bump())
            try? await Task.sleep(for: .milliseconds(5))
            names.append(Self.threadName())
            // Resumed from another thread: the executor is woken for it.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread { continuation.resume() }.start()
            }
            names.append(Self.threadName())
            return names
        }.value
        #expect(names == Array(repeating: "cb test market", count: 5))
    }

    @Test func tasksStartedUnderTheTaskLocalPreferItAndPlainTasksDoNot() async {
        let executor = DedicatedThreadExecutor(name: "cb test local")
        let (preferred, nested, plain, outside) = await PreferredTaskExecutor.$current.withValue(executor) {
            let preferred = await Task.preferred { Self.threadName() }.value
            // A task started by a preferred task inherits the task-local, so the one after it prefers it too.
            let nested = await Task.preferred { await Task.preferred { Self.threadName() }.value }.value
            let plain = await Task { Self.threadName() }.value
            let outside = await PreferredTaskExecutor.$current.withValue(nil) { await Task.preferred { Self.threadName() }.value }
            return (preferred, nested, plain, outside)
        }
        #expect(preferred == "cb test local")
        #expect(nested == "cb test local")
        #expect(plain != "cb test local", "a plain Task {} runs on the pool")
        #expect(outside != "cb test local", "no preference: the pool")
    }

    /// An actor on the executor (the app's update loop) runs on its thread whoever calls it, and a task
    /// there that calls the actor stays on the thread: the hand-over is a queue append.
    private actor Resident {
        nonisolated let executor: DedicatedThreadExecutor
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
        var calls = 0
        init(executor: DedicatedThreadExecutor) { self.executor = executor }
        func call() -> String {
            calls += 1
            return DedicatedThreadExecutorTests.threadName()
        }
    }

    @Test func anActorOnItRunsOnItsThreadForCallersOnThePoolAndOnIt() async {
        let executor = DedicatedThreadExecutor(name: "cb test actor")
        let resident = Resident(executor: executor)
        let fromPool = await Task.detached { await resident.call() }.value
        let fromThread = await Task(executorPreference: executor) { () -> [String] in
            let inside = await resident.call()
            return [inside, Self.threadName()]
        }.value
        let many = await withTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { await resident.call() } }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(fromPool == "cb test actor")
        #expect(fromThread == ["cb test actor", "cb test actor"])
        #expect(many == ["cb test actor"])
        #expect(await resident.calls == 52)
    }

    @Test func jobsRunOneAtATimeInTheOrderTheyCame() async {
        let executor = DedicatedThreadExecutor(name: "cb test order")
        let order = Locked<[Int]>([])
        let inside = Locked(0)
        let overlapped = Locked(false)
        let tasks = (0..<200).map { index in
            Task(executorPreference: executor) {
                let concurrent = inside.withLock { count -> Int in
                    count += 1
                    return count
                }
                if concurrent > 1 { overlapped.withLock { $0 = true } }
                order.withLock { $0.append(index) }
                inside.withLock { $0 -= 1 }
            }
        }
        for task in tasks { await task.value }
        #expect(order.withLock { $0 } == Array(0..<200))
        #expect(!overlapped.withLock { $0 })
    }
}
#endif
