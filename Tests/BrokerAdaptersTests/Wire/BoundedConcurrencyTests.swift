import BrokerAdapters
import Domain
import Locking
import Testing

@Suite struct BoundedConcurrencyTests {
    final class Gauge: Sendable {
        let state = Locked((running: 0, peak: 0))
        func enter() { state.withLock { $0.running += 1; $0.peak = max($0.peak, $0.running) } }
        func leave() { state.withLock { $0.running -= 1 } }
        var peak: Int { state.withLock { $0.peak } }
    }

    @Test func resultsInItemOrderWithFailuresInPlace() async {
        let results = await BoundedConcurrency.results(for: Array(0..<10), limit: 3) { item throws(BrokerError) in
            if item == 4 { throw .unknownSymbol("4") }
            return item * 10
        }
        #expect(results.count == 10)
        #expect(results.map { try? $0.get() } == [0, 10, 20, 30, nil, 50, 60, 70, 80, 90])
        #expect(results[4] == .failure(.unknownSymbol("4")))
    }

    @Test func neverMoreThanTheLimitInFlight() async {
        let gauge = Gauge()
        let results = await BoundedConcurrency.results(for: Array(0..<20), limit: 4) { item throws(BrokerError) in
            gauge.enter()
            defer { gauge.leave() }
            await Task.yield()
            return item
        }
        #expect(results.count == 20)
        #expect(gauge.peak >= 1 && gauge.peak <= 4)
    }

    @Test func noItemsNoWork() async {
        let results = await BoundedConcurrency.results(for: [Int](), limit: 4) { item throws(BrokerError) in item }
        #expect(results.isEmpty)
    }

    @Test func aFailureThatEndsTheBatchLeavesTheRestUnrun() async {
        let started = Locked<[Int]>([])
        let results = await BoundedConcurrency.results(
            for: Array(0..<5), limit: 1, endsBatch: { if case .rateLimited = $0 { true } else { false } }
        ) { item throws(BrokerError) in
            started.withLock { $0.append(item) }
            if item == 1 { throw .rateLimited(retryAfter: 30) }
            return item
        }
        #expect(started.withLock { $0 } == [0, 1])
        #expect(results == [.success(0)] + Array(repeating: .failure(.rateLimited(retryAfter: 30)), count: 4))
    }

    @Test func cancellationLeavesTheRestUnrun() async {
        let started = Locked<[Int]>([])
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await BoundedConcurrency.results(for: Array(0..<3), limit: 1) { item throws(BrokerError) in
                started.withLock { $0.append(item) }
                return item
            }
        }
        let results = await task.value
        #expect(started.withLock { $0 } == [0])
        #expect(results == [.success(0), .failure(.cancelled), .failure(.cancelled)])
    }
}
