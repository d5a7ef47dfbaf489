@testable import Locking
import Testing

/// `OneReaderStream` (the app's `QuoteEvents` and `WebSocketMessages`) keeps the contract of the
/// `AsyncThrowingStream` it replaced: order, the end after the elements before it, the termination
/// handler once, and the reader's going away as cancellation; and its iterator takes one element at a
/// time, so a dropped iterator leaves the rest for the next.
@Suite struct OneReaderStreamTests {
    typealias Events = OneReaderStream<Int>

    struct Refused: Error, Equatable {}

    /// Counts `onTermination` calls by kind.
    final class Terminations: Sendable {
        private let seen = Locked<[Events.Termination]>([])
        var all: [Events.Termination] { seen.withLock { $0 } }
        func record(_ termination: Events.Termination) { seen.withLock { $0.append(termination) } }
    }

    @Test func eventsArriveInOrderAndTheSequenceEndsAfterFinish() async throws {
        let (events, continuation) = Events.makeStream()
        for index in 0..<5 { #expect(continuation.yield(index) == .enqueued(remaining: .max)) }
        continuation.finish()
        var seen: [Int] = []
        for try await event in events { seen.append(event) }
        #expect(seen == Array(0..<5))
    }

    @Test func aBatchIsEverythingWaiting() async throws {
        let (events, continuation) = Events.makeStream()
        continuation.yield(-1)
        continuation.yield(1)
        #expect(try await events.nextBatch() == [-1, 1])
        continuation.yield(2)
        continuation.finish()
        #expect(try await events.nextBatch() == [2])
        #expect(try await events.nextBatch() == nil)
        #expect(try await events.nextBatch() == nil, "and stays ended")
    }

    @Test func aFailureIsThrownAfterTheEventsBeforeItThenTheSequenceIsOver() async throws {
        let (events, continuation) = Events.makeStream()
        continuation.yield(1)
        continuation.finish(throwing: Refused())
        var iterator = events.makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        await #expect(throws: Refused.self) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func nothingIsQueuedAfterTheEndAndTheHandlerRunsOnce() {
        let terminations = Terminations()
        let (events, continuation) = Events.makeStream()
        continuation.onTermination = { terminations.record($0) }
        continuation.finish()
        continuation.finish(throwing: Refused())
        #expect(continuation.yield(-1) == .terminated)
        #expect(terminations.all == [.finished])
        // A handler set after the end hears at once how it ended.
        let late = Terminations()
        continuation.onTermination = { late.record($0) }
        #expect(late.all == [.finished])
        withExtendedLifetime(events) {}
    }

    @Test func aConsumerCancelledWhileItWaitsEndsTheSequenceAsCancelled() async throws {
        let terminations = Terminations()
        let (events, continuation) = Events.makeStream()
        continuation.onTermination = { terminations.record($0) }
        let consumer = Task { () async throws -> Int in
            var count = 0
            for try await _ in events { count += 1 }
            return count
        }
        continuation.yield(-1)
        consumer.cancel()
        let count = try await consumer.value
        #expect(count <= 1)
        #expect(terminations.all == [.cancelled])
        #expect(continuation.yield(-1) == .terminated)
    }

    @Test func releasingTheSequenceAndItsIteratorsIsCancellation() {
        let terminations = Terminations()
        var continuation: Events.Continuation?
        do {
            let (events, made) = Events.makeStream()
            made.onTermination = { terminations.record($0) }
            continuation = made
            _ = events.makeAsyncIterator()
        }
        #expect(terminations.all == [.cancelled])
        #expect(continuation?.yield(-1) == .terminated)
    }

    @Test func keepingTheOldestRefusesWhatComesWhenFull() async throws {
        let (events, continuation) = Events.makeStream(bufferingPolicy: .bufferingOldest(2))
        #expect(continuation.yield(1) == .enqueued(remaining: 1))
        #expect(continuation.yield(2) == .enqueued(remaining: 0))
        #expect(continuation.yield(3) == .dropped(3))
        #expect(try await events.nextBatch() == [1, 2])
        #expect(continuation.yield(4) == .enqueued(remaining: 1), "room again once taken")
    }

    @Test func keepingTheNewestDropsTheOldestWaiting() async throws {
        let (events, continuation) = Events.makeStream(bufferingPolicy: .bufferingNewest(3))
        for index in 0..<3 { continuation.yield(index) }
        #expect(continuation.yield(3) == .dropped(0))
        // Far past the point where the dropped front is compacted away.
        for index in 4..<5_000 { continuation.yield(index) }
        #expect(try await events.nextBatch() == Array(4_997..<5_000))
        continuation.yield(9)
        #expect(try await events.nextBatch() == [9])
    }

    @Test func aParkedConsumerWakesForTheNextEvent() async throws {
        let (events, continuation) = Events.makeStream()
        let consumer = Task { try await events.nextBatch() }
        // Whether the consumer parked first or not, it gets the event.
        continuation.yield(-1)
        #expect(try await consumer.value == [-1])
    }

    @Test func aParkedConsumerWakesOnceForSeveralYieldedTogether() async throws {
        let (events, continuation) = Events.makeStream()
        let consumer = Task { try await events.nextBatch() }
        // Parked first, so the three land while it waits: yielded under one lock and resumed once, it
        // finds them all in its one batch (yielded one by one, the first resume could take [1] alone).
        let deadline = ContinuousClock.now + .seconds(10)
        while !events.isReaderParked, ContinuousClock.now < deadline { await Task.yield() }
        #expect(events.isReaderParked)
        continuation.yield(contentsOf: [1, 2, 3])
        #expect(try await consumer.value == [1, 2, 3])
        continuation.yield(contentsOf: [])
        continuation.yield(4)
        #expect(try await events.nextBatch() == [4], "an empty batch queues nothing")
    }

    @Test func severalYieldedTogetherFollowThePolicyAsOneByOne() async throws {
        let (oldest, keepsOldest) = Events.makeStream(bufferingPolicy: .bufferingOldest(2))
        keepsOldest.yield(contentsOf: [1, 2, 3])
        #expect(try await oldest.nextBatch() == [1, 2])
        let (newest, keepsNewest) = Events.makeStream(bufferingPolicy: .bufferingNewest(2))
        keepsNewest.yield(contentsOf: 0..<5)
        #expect(try await newest.nextBatch() == [3, 4])
        let (ended, endedContinuation) = Events.makeStream()
        endedContinuation.yield(7)
        endedContinuation.finish()
        endedContinuation.yield(contentsOf: [8, 9])
        #expect(try await ended.nextBatch() == [7], "nothing is queued after the end")
        #expect(try await ended.nextBatch() == nil)
    }

    @Test func aDroppedIteratorLeavesTheRestForTheNextReader() async throws {
        let (events, continuation) = Events.makeStream()
        for index in 0..<3 { continuation.yield(index) }
        for index in 0..<2 {
            var iterator = events.makeAsyncIterator()
            #expect(try await iterator.next() == index)
        }
        #expect(try await events.nextBatch() == [2])
    }

    @Test func oneAtATimeFarPastTheCompactionPointKeepsOrder() async throws {
        let (events, continuation) = Events.makeStream()
        var iterator = events.makeAsyncIterator()
        var next = 0
        for index in 0..<5_000 {
            continuation.yield(index)
            // The reader stays behind by about half of what came, so the front is compacted away again and again.
            if index % 2 == 1 {
                #expect(try await iterator.next() == next)
                next += 1
            }
        }
        #expect(try await events.nextBatch() == Array(next..<5_000))
    }
}
