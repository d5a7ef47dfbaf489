import Domain
import Foundation
import Testing

@testable import MarketDataHub

/// A mailbox that follows many keys keeps a log of the slots stored and visits only those: each test
/// checks that a batch holds what visiting every key would have found, across the log's edges (its
/// start and end as keys come and go, a log longer than the keys, keys unfollowed after a store).
@Suite struct SubscriberMailboxChangeLogTests {
    let board = BrokerStateBoard(brokers: ["alpha"])
    /// The fewest keys that keep a log.
    let many = SubscriberMailbox.changeLogThreshold

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
        let followed = slots(many + 36)
        let mailbox = mailbox(following: followed)
        store(1, in: followed[3], for: mailbox)
        store(2, in: followed[70], for: mailbox)
        store(3, in: followed[3], for: mailbox)
        #expect(mailbox.takeBatch()?.quotes == [
            followed[3].key: quote(followed[3], 3), followed[70].key: quote(followed[70], 2),
        ])
        #expect(mailbox.takeBatch() == nil, "the log was emptied with the batch")
        store(4, in: followed[many + 35], for: mailbox)
        #expect(mailbox.takeBatch()?.quotes == [followed[many + 35].key: quote(followed[many + 35], 4)])
    }

    @Test func moreStoresThanKeysBeforeABatchStillEndOnEveryKeysNewest() {
        let followed = slots(many)
        let mailbox = mailbox(following: followed)
        for round in 1...3 {
            for slot in followed { store(round, in: slot, for: mailbox) }
        }
        let batch = mailbox.takeBatch()
        #expect(batch?.quotes.count == many)
        #expect(followed.allSatisfy { batch?.quotes[$0.key] == quote($0, 3) })
        // The overflow is over: the log is back to the keys stored since.
        store(9, in: followed[5], for: mailbox)
        #expect(mailbox.takeBatch()?.quotes == [followed[5].key: quote(followed[5], 9)])
    }

    @Test func aStorePastTheLogsBoundIsInTheBatch() {
        let followed = slots(many)
        let mailbox = mailbox(following: followed)
        // Two keys in turn fill the log's entries (one per key followed); the store after them finds it full.
        for round in 1...many / 2 {
            store(round, in: followed[0], for: mailbox)
            store(round, in: followed[1], for: mailbox)
        }
        store(1, in: followed[2], for: mailbox)
        #expect(mailbox.takeBatch()?.quotes == [
            followed[0].key: quote(followed[0], many / 2), followed[1].key: quote(followed[1], many / 2),
            followed[2].key: quote(followed[2], 1),
        ])
    }

    @Test func aBatchVisitsTheLoggedSlotsOnly() {
        // What tells a log from a visit of every key: a slot stored without the hub's call is found by
        // the visit (below the threshold) and not by the log (at it).
        for (count, seen) in [(SubscriberMailbox.changeLogThreshold - 1, true), (SubscriberMailbox.changeLogThreshold, false)] {
            let followed = slots(count)
            let mailbox = mailbox(following: followed)
            followed[7].store(quote(followed[7], 1))
            store(2, in: followed[9], for: mailbox)
            let batch = mailbox.takeBatch()
            #expect(batch?.quotes[followed[9].key] == quote(followed[9], 2))
            #expect((batch?.quotes[followed[7].key] != nil) == seen, "following \(count) keys")
        }
    }

    @Test func keysAddedWhileLoggingAreFoundInTheLog() {
        let first = slots(many + 6)
        let mailbox = mailbox(following: first)
        let added = slots(5, from: 1_000)
        mailbox.follow(added, replay: MarketUpdate())
        _ = mailbox.takeBatch()
        store(1, in: added[4], for: mailbox)
        store(2, in: first[many + 5], for: mailbox)
        #expect(mailbox.takeBatch()?.quotes == [added[4].key: quote(added[4], 1), first[many + 5].key: quote(first[many + 5], 2)])
    }

    @Test func aFailureAndTheQuoteThatClearsItGoThroughTheLog() {
        let followed = slots(many)
        let mailbox = mailbox(following: followed)
        followed[3].store(BrokerError.network("gone"))
        mailbox.signal(changed: followed[3])
        #expect(mailbox.takeBatch()?.failures == [followed[3].key: BrokerError.network("gone")])
        store(4, in: followed[3], for: mailbox)
        let batch = mailbox.takeBatch()
        #expect(batch?.quotes == [followed[3].key: quote(followed[3], 4)])
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
        let followed = slots(many + 6)
        let mailbox = mailbox(following: followed)
        mailbox.unfollow(followed[0..<10].map(\.key))
        // Stored without the hub's call, which a mailbox without a log needs no more than a wake-up.
        followed[40].store(quote(followed[40], 8))
        mailbox.signalOutsideSlots()
        #expect(mailbox.takeBatch()?.quotes == [followed[40].key: quote(followed[40], 8)])
    }

    @Test func aKeyUnfollowedAfterItsStoreIsNotInTheBatch() {
        let followed = slots(many + 16)
        let mailbox = mailbox(following: followed)
        store(1, in: followed[0], for: mailbox)
        store(2, in: followed[many + 15], for: mailbox)
        mailbox.unfollow([followed[0].key])
        #expect(mailbox.takeBatch()?.quotes == [followed[many + 15].key: quote(followed[many + 15], 2)])
        // Positions moved up by one; the last key is still found where it is now.
        store(3, in: followed[many + 15], for: mailbox)
        #expect(mailbox.takeBatch()?.quotes == [followed[many + 15].key: quote(followed[many + 15], 3)])
    }

    @Test func aKeyFollowedAgainAfterItsStoreIsLoggedAtItsNewPlace() {
        let followed = slots(many + 16)
        let mailbox = mailbox(following: followed)
        store(1, in: followed[0], for: mailbox)
        mailbox.unfollow([followed[0].key])
        mailbox.follow([followed[0]], replay: MarketUpdate())
        #expect(mailbox.takeBatch() == nil, "followed again from the version it had")
        store(2, in: followed[0], for: mailbox)
        #expect(mailbox.takeBatch()?.quotes == [followed[0].key: quote(followed[0], 2)])
    }

    /// The hub on a thread of its own, storing round after round into every key while the consumer takes
    /// batches: the consumer ends on every key's last price (`make test-tsan` runs this too).
    @Test func aConsumerBesideAStoringHubEndsOnEveryKeysLastPrice() async throws {
        let followed = slots(many + 36), rounds = 200
        let mailbox = mailbox(following: followed)
        let hub = Thread { [followed] in
            for round in 1...rounds {
                for slot in followed {
                    slot.store(CommonQuote(symbol: slot.key.symbol, last: ExactDecimal(round), timestamp: Date(timeIntervalSince1970: 1_700_000_000)))
                    mailbox.signal(changed: slot)
                }
            }
        }
        hub.start()
        let last = try await withTimeout("every key's last price") { () -> [QuoteKey: ExactDecimal] in
            var last: [QuoteKey: ExactDecimal] = [:]
            while last.count < followed.count || last.values.contains(where: { $0 != ExactDecimal(rounds) }) {
                guard let batch = await mailbox.nextBatch() else { break }
                for (key, quote) in batch.quotes { last[key] = quote.last }
            }
            return last
        }
        #expect(last.count == followed.count)
        #expect(last.values.allSatisfy { $0 == ExactDecimal(rounds) })
    }

    @Test func aStoreAfterTheBatchWakesTheParkedConsumerWithIt() async throws {
        let followed = slots(many + 36)
        let mailbox = mailbox(following: followed)
        let consumer = Task { await mailbox.nextBatch() }
        store(7, in: followed[50], for: mailbox)
        let batch = try await withTimeout("the woken consumer's batch") { await consumer.value }
        #expect(batch.quotes == [followed[50].key: quote(followed[50], 7)])
    }
}
