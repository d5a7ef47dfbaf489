import Domain
import Foundation
import Locking
import Testing

/// `QuoteEvents` keeps the contract of the `AsyncThrowingStream` it replaced: order, the end after the
/// events before it, the termination handler once, and the consumer's going away as cancellation.
@Suite struct QuoteEventsTests {
    struct Refused: Error, Equatable {}

    static func quote(_ index: Int) -> QuoteEvent {
        .quote(CommonQuote(symbol: "S\(index)", last: ExactDecimal(index), timestamp: Date(timeIntervalSince1970: 1_700_000_000)))
    }

    /// Counts `onTermination` calls by kind.
    final class Terminations: Sendable {
        private let seen = Locked<[QuoteEvents.Termination]>([])
        var all: [QuoteEvents.Termination] { seen.withLock { $0 } }
        func record(_ termination: QuoteEvents.Termination) { seen.withLock { $0.append(termination) } }
    }

    @Test func eventsArriveInOrderAndTheSequenceEndsAfterFinish() async throws {
        let (events, continuation) = QuoteEvents.makeStream()
        for index in 0..<5 { #expect(continuation.yield(Self.quote(index)) == .enqueued(remaining: .max)) }
        continuation.finish()
        var seen: [QuoteEvent] = []
        for try await event in events { seen.append(event) }
        #expect(seen == (0..<5).map(Self.quote))
    }

    @Test func aBatchIsEverythingWaiting() async throws {
        let (events, continuation) = QuoteEvents.makeStream()
        continuation.yield(.live)
        continuation.yield(Self.quote(1))
        #expect(try await events.nextBatch() == [.live, Self.quote(1)])
        continuation.yield(Self.quote(2))
        continuation.finish()
        #expect(try await events.nextBatch() == [Self.quote(2)])
        #expect(try await events.nextBatch() == nil)
        #expect(try await events.nextBatch() == nil, "and stays ended")
    }

    @Test func aFailureIsThrownAfterTheEventsBeforeItThenTheSequenceIsOver() async throws {
        let (events, continuation) = QuoteEvents.makeStream()
        continuation.yield(Self.quote(1))
        continuation.finish(throwing: Refused())
        var iterator = events.makeAsyncIterator()
        #expect(try await iterator.next() == Self.quote(1))
        await #expect(throws: Refused.self) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func nothingIsQueuedAfterTheEndAndTheHandlerRunsOnce() {
        let terminations = Terminations()
        let (events, continuation) = QuoteEvents.makeStream()
        continuation.onTermination = { terminations.record($0) }
        continuation.finish()
        continuation.finish(throwing: Refused())
        #expect(continuation.yield(.live) == .terminated)
        #expect(terminations.all == [.finished])
        // A handler set after the end hears at once how it ended.
        let late = Terminations()
        continuation.onTermination = { late.record($0) }
        #expect(late.all == [.finished])
        withExtendedLifetime(events) {}
    }

    @Test func aConsumerCancelledWhileItWaitsEndsTheSequenceAsCancelled() async throws {
        let terminations = Terminations()
        let (events, continuation) = QuoteEvents.makeStream()
        continuation.onTermination = { terminations.record($0) }
        let consumer = Task { () async throws -> Int in
            var count = 0
            for try await _ in events { count += 1 }
            return count
        }
        continuation.yield(.live)
        consumer.cancel()
        let count = try await consumer.value
        #expect(count <= 1)
        #expect(terminations.all == [.cancelled])
        #expect(continuation.yield(.live) == .terminated)
    }

    @Test func releasingTheSequenceAndItsIteratorsIsCancellation() {
        let terminations = Terminations()
        var continuation: QuoteEvents.Continuation?
        do {
            let (events, made) = QuoteEvents.makeStream()
            made.onTermination = { terminations.record($0) }
            continuation = made
            _ = events.makeAsyncIterator()
        }
        #expect(terminations.all == [.cancelled])
        #expect(continuation?.yield(.live) == .terminated)
    }

    @Test func keepingTheOldestRefusesWhatComesWhenFull() async throws {
        let (events, continuation) = QuoteEvents.makeStream(bufferingPolicy: .bufferingOldest(2))
        #expect(continuation.yield(Self.quote(1)) == .enqueued(remaining: 1))
        #expect(continuation.yield(Self.quote(2)) == .enqueued(remaining: 0))
        #expect(continuation.yield(Self.quote(3)) == .dropped(Self.quote(3)))
        #expect(try await events.nextBatch() == [Self.quote(1), Self.quote(2)])
        #expect(continuation.yield(Self.quote(4)) == .enqueued(remaining: 1), "room again once taken")
    }

    @Test func keepingTheNewestDropsTheOldestWaiting() async throws {
        let (events, continuation) = QuoteEvents.makeStream(bufferingPolicy: .bufferingNewest(3))
        for index in 0..<3 { continuation.yield(Self.quote(index)) }
        #expect(continuation.yield(Self.quote(3)) == .dropped(Self.quote(0)))
        // Far past the point where the dropped front is compacted away.
        for index in 4..<5_000 { continuation.yield(Self.quote(index)) }
        #expect(try await events.nextBatch() == (4_997..<5_000).map(Self.quote))
        continuation.yield(Self.quote(9))
        #expect(try await events.nextBatch() == [Self.quote(9)])
    }

    @Test func aParkedConsumerWakesForTheNextEvent() async throws {
        let (events, continuation) = QuoteEvents.makeStream()
        let consumer = Task { try await events.nextBatch() }
        // Whether the consumer parked first or not, it gets the event.
        continuation.yield(.live)
        #expect(try await consumer.value == [.live])
    }
}
