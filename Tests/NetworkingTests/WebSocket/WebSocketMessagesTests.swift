import Locking
import Networking
import Testing

/// `WebSocketMessages` keeps the contract of the `AsyncThrowingStream` it replaced: order, the end after
/// the messages before it, the termination handler once, the reader's going away as cancellation, and an
/// iterator that takes one message at a time (a dropped iterator leaves the rest for the next).
@Suite struct WebSocketMessagesTests {
    struct Refused: Error, Equatable {}

    static func text(_ index: Int) -> WebSocketMessage { .text("m\(index)") }

    final class Terminations: Sendable {
        private let seen = Locked<[WebSocketMessages.Termination]>([])
        var all: [WebSocketMessages.Termination] { seen.withLock { $0 } }
        func record(_ termination: WebSocketMessages.Termination) { seen.withLock { $0.append(termination) } }
    }

    @Test func messagesArriveInOrderAndTheSequenceEndsAfterFinish() async throws {
        let (messages, continuation) = WebSocketMessages.makeStream()
        for index in 0..<5 { #expect(continuation.yield(Self.text(index))) }
        continuation.yield(.binary([0, 1]))
        continuation.finish()
        var seen: [WebSocketMessage] = []
        for try await message in messages { seen.append(message) }
        #expect(seen == (0..<5).map(Self.text) + [.binary([0, 1])])
    }

    @Test func aBatchIsEverythingWaiting() async throws {
        let (messages, continuation) = WebSocketMessages.makeStream()
        continuation.yield(Self.text(1))
        continuation.yield(Self.text(2))
        #expect(try await messages.nextBatch() == [Self.text(1), Self.text(2)])
        continuation.yield(Self.text(3))
        continuation.finish()
        #expect(try await messages.nextBatch() == [Self.text(3)])
        #expect(try await messages.nextBatch() == nil)
        #expect(try await messages.nextBatch() == nil, "and stays ended")
    }

    @Test func aDroppedIteratorLeavesTheRestForTheNextReader() async throws {
        let (messages, continuation) = WebSocketMessages.makeStream()
        for index in 0..<3 { continuation.yield(Self.text(index)) }
        for index in 0..<2 {
            var iterator = messages.makeAsyncIterator()
            #expect(try await iterator.next() == Self.text(index))
        }
        #expect(try await messages.nextBatch() == [Self.text(2)])
    }

    @Test func oneAtATimeFarPastTheCompactionPointKeepsOrder() async throws {
        let (messages, continuation) = WebSocketMessages.makeStream()
        var iterator = messages.makeAsyncIterator()
        var next = 0
        for index in 0..<5_000 {
            continuation.yield(Self.text(index))
            // The reader stays behind by about half of what came, so the front is compacted away again and again.
            if index % 2 == 1 {
                #expect(try await iterator.next() == Self.text(next))
                next += 1
            }
        }
        #expect(try await messages.nextBatch() == (next..<5_000).map(Self.text))
    }

    @Test func aFailureIsThrownAfterTheMessagesBeforeItThenTheSequenceIsOver() async throws {
        let (messages, continuation) = WebSocketMessages.makeStream()
        continuation.yield(Self.text(1))
        continuation.finish(throwing: Refused())
        var iterator = messages.makeAsyncIterator()
        #expect(try await iterator.next() == Self.text(1))
        await #expect(throws: Refused.self) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func nothingIsQueuedAfterTheEndAndTheHandlerRunsOnce() {
        let terminations = Terminations()
        let (messages, continuation) = WebSocketMessages.makeStream()
        continuation.onTermination = { terminations.record($0) }
        continuation.finish()
        continuation.finish(throwing: Refused())
        #expect(!continuation.yield(Self.text(1)))
        #expect(terminations.all == [.finished])
        let late = Terminations()
        continuation.onTermination = { late.record($0) }
        #expect(late.all == [.finished], "a handler set after the end hears at once how it ended")
        withExtendedLifetime(messages) {}
    }

    @Test func aReaderCancelledWhileItWaitsEndsTheSequenceAsCancelled() async throws {
        let terminations = Terminations()
        let (messages, continuation) = WebSocketMessages.makeStream()
        continuation.onTermination = { terminations.record($0) }
        let reader = Task { () async throws -> Int in
            var count = 0
            for try await _ in messages { count += 1 }
            return count
        }
        continuation.yield(Self.text(1))
        reader.cancel()
        let count = try await reader.value
        #expect(count <= 1)
        #expect(terminations.all == [.cancelled])
        #expect(!continuation.yield(Self.text(2)))
    }

    @Test func releasingTheSequenceAndItsIteratorsIsCancellation() {
        let terminations = Terminations()
        var continuation: WebSocketMessages.Continuation?
        do {
            let (messages, made) = WebSocketMessages.makeStream()
            made.onTermination = { terminations.record($0) }
            continuation = made
            _ = messages.makeAsyncIterator()
        }
        #expect(terminations.all == [.cancelled])
        #expect(continuation?.yield(Self.text(1)) == false)
    }

    @Test func aParkedReaderWakesForTheNextMessage() async throws {
        let (messages, continuation) = WebSocketMessages.makeStream()
        let reader = Task { try await messages.nextBatch() }
        continuation.yield(Self.text(7))
        #expect(try await reader.value == [Self.text(7)])
    }
}
