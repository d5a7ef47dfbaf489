import Domain
import Foundation
import Testing

@testable import MarketDataHub

/// A mailbox that follows many keys keeps a log of the slots stored and visits only those: each test
/// checks that a batch holds what visiting every key would have found, across the log's edges (its
/// start and end as keys come and go, a log longer than the keys, keys unfollowed after a store).
@Suite struct SubscriberMailboxChangeLogTests {
    let board = BrokerStateBoard(brokers: ["alpha"])

    func slots(_ count: Int, from first: Int = 0) -> [QuoteSlot] {
        (first..<first + count).map { QuoteSlot(key: QuoteKey(brandID: "alpha", symbol: "S\($0)")) }
    }

    func quote(_ slot: QuoteSlot, _ last: Int) -> CommonQuote {
        CommonQuote(symbol: slot.key.symbol, last: ExactDecimal(last), timestamp: Date(timeIntervalSince1970: 1_700_000_000))
    }

    /// Stores `last` in `slot` and signals as the hub does.
    func store(_ last: Int, in slot: QuoteSlot, for mailbox: SubscriberMailbox) {
        slot.store(quote(slot, last))
        mailbox.signal(changed: slot)
    }

    /// A mailbox following `slots` whose first batch (the board's states) is taken.
    func mailbox(following slots: [QuoteSlot]) -> SubscriberMailbox {
        let mailbox = SubscriberMailbox(id: 0, board: board)
        mailbox.follow(slots, replay: MarketUpdate())
        _ = mailbox.takeBatch()
        return mailbox
    }

    @Test func aBatchHoldsTheNewestQuoteOfEachKeyStoredAndNoOther() {
        let followed = slots(100)
        let mailbox = mailbox(following: followed)
        store(1, in: followed[3], for: mailbox)
        store(2, in: followed[70], for: mailbox)
        store(3, in: followed[3], for: mailbox)
        #expect(mailbox.takeBatch()?.quotes == [
            followed[3].key: quote(followed[3], 3), followed[70].key: quote(followed[70], 2),
        ])
        #expect(mailbox.takeBatch() == nil, "the log was emptied with the batch")
        store(4, in: followed[99], for: mailbox)
        #expect(mailbox.takeBatch()?.quotes == [followed[99].key: quote(followed[99], 4)])
    }

    @Test func moreStoresThanKeysBeforeABatchStillEndOnEveryKeysNewest() {
        let followed = slots(64)
        let mailbox = mailbox(following: followed)
        for round in 1...3 {
            for slot in followed { store(round, in: slot, for: mailbox) }
        }
        let batch = mailbox.takeBatch()
        #expect(batch?.quotes.count == 64)
        #expect(followed.allSatisfy { batch?.quotes[$0.key] == quote($0, 3) })
        // The overflow is over: the log is back to the keys stored since.
        store(9, in: followed[5], for: mailbox)
        #expect(mailbox.takeBatch()?.quotes == [followed[5].key: quote(followed[5], 9)])
    }

    @Test func aStoreFromBeforeTheLogStartedIsInTheFirstBatchAfter() {
        let first = slots(SubscriberMailbox.changeLogThreshold - 1)
        let mailbox = mailbox(following: first)
        store(5, in: first[10], for: mailbox)
        let added = slots(1, from: 1_000)
        mailbox.follow(added, replay: MarketUpdate())
        store(6, in: added[0], for: mailbox)
        #expect(mailbox.takeBatch()?.quotes == [first[10].key: quote(first[10], 5), added[0].key: quote(added[0], 6)])
    }

    @Test func belowTheThresholdAgainEveryKeyIsVisited() {
        let followed = slots(70)
        let mailbox = mailbox(following: followed)
        mailbox.unfollow(followed[0..<10].map(\.key))
        // Stored without the hub's call, which a mailbox without a log needs no more than a wake-up.
        followed[40].store(quote(followed[40], 8))
        mailbox.signal()
        #expect(mailbox.takeBatch()?.quotes == [followed[40].key: quote(followed[40], 8)])
    }

    @Test func aKeyUnfollowedAfterItsStoreIsNotInTheBatch() {
        let followed = slots(80)
        let mailbox = mailbox(following: followed)
        store(1, in: followed[0], for: mailbox)
        store(2, in: followed[79], for: mailbox)
        mailbox.unfollow([followed[0].key])
        #expect(mailbox.takeBatch()?.quotes == [followed[79].key: quote(followed[79], 2)])
        // Positions moved up by one; the last key is still found where it is now.
        store(3, in: followed[79], for: mailbox)
        #expect(mailbox.takeBatch()?.quotes == [followed[79].key: quote(followed[79], 3)])
    }

    @Test func aStoreAfterTheBatchWakesTheParkedConsumerWithIt() async throws {
        let followed = slots(100)
        let mailbox = mailbox(following: followed)
        let consumer = Task { await mailbox.nextBatch() }
        store(7, in: followed[50], for: mailbox)
        let batch = try await withTimeout("the woken consumer's batch") { await consumer.value }
        #expect(batch.quotes == [followed[50].key: quote(followed[50], 7)])
    }
}
