import Domain
import Foundation
import Testing

@testable import MarketDataHub

/// The mailbox on its own, driven from the test: no hub, no upstream.
@Suite struct SubscriberMailboxTests {
    let board = BrokerStateBoard(brokers: ["alpha", "beta"])
    let key = QuoteKey(brandID: "alpha", symbol: "AAPL")

    func quote(_ last: ExactDecimal) -> CommonQuote {
        CommonQuote(symbol: "AAPL", last: last, timestamp: Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func firstBatchCarriesEveryBrokerStateFromTheBoard() async throws {
        board.set(.live, at: 1)
        let mailbox = SubscriberMailbox(id: 0, board: board)
        mailbox.follow([], replay: MarketUpdate())
        let batch = try await withTimeout("the first batch") { await mailbox.nextBatch() }
        #expect(batch == MarketUpdate(brokerStates: ["alpha": .connecting, "beta": .live]))
    }

    @Test func batchEndsOnTheNewestQuoteWhateverWasStoredBefore() async throws {
        let slot = QuoteSlot(key: key)
        let mailbox = SubscriberMailbox(id: 0, board: board)
        mailbox.follow([slot], replay: MarketUpdate())
        _ = mailbox.takeBatch()
        for last in 1...50 {
            slot.store(quote(ExactDecimal(last)))
            mailbox.signal(changed: slot)
        }
        let batch = try await withTimeout("the batch") { await mailbox.nextBatch() }
        #expect(batch.quotes == [key: quote(50)])
        #expect(mailbox.takeBatch() == nil)
    }

    @Test func parkedConsumerWakesForAQuoteStoredAfterItParked() async throws {
        let slot = QuoteSlot(key: key)
        let mailbox = SubscriberMailbox(id: 0, board: board)
        mailbox.follow([slot], replay: MarketUpdate())
        _ = mailbox.takeBatch()
        let consumer = Task { await mailbox.nextBatch() }
        slot.store(quote(7))
        mailbox.signal(changed: slot)
        let batch = try await withTimeout("the woken consumer's batch") { await consumer.value }
        #expect(batch.quotes[key] == quote(7))
    }

    @Test func finishDeliversWhatIsOwedThenEnds() async throws {
        let slot = QuoteSlot(key: key)
        let mailbox = SubscriberMailbox(id: 0, board: board)
        mailbox.follow([slot], replay: MarketUpdate())
        _ = mailbox.takeBatch()
        slot.store(quote(3))
        mailbox.signal(changed: slot)
        mailbox.finish()
        #expect(await mailbox.nextBatch()?.quotes[key] == quote(3))
        #expect(await mailbox.nextBatch() == nil)
        #expect(mailbox.cancel() == false, "a finished stream is not news to the hub")
    }

    @Test func cancelEndsAParkedConsumerAndIsNewsOnlyOnce() async throws {
        let mailbox = SubscriberMailbox(id: 0, board: board)
        _ = mailbox.takeBatch()
        let consumer = Task { await mailbox.nextBatch() }
        #expect(mailbox.cancel())
        #expect(try await withTimeout("the cancelled consumer") { () -> Bool? in await consumer.value == nil })
        #expect(mailbox.cancel() == false)
    }
}
