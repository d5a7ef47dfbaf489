import Foundation
@testable import Networking
import Testing

/// The ordered consumer's rules fed by hand: gaps, heartbeats, flow control, silence.
@Suite struct NATSOrderedConsumerTests {
    static func delivery(_ consumerSequence: UInt64, stream: UInt64, pending: UInt64) -> NATSMessage {
        NATSMessage(subject: "$KV.b.k\(stream)", sid: "1", replyTo: "$JS.ACK.KV_b.c1.1.\(stream).\(consumerSequence).1795564318016031250.\(pending)", payload: [1])
    }

    static func status(_ code: Int, _ description: String, _ fields: [(String, String)] = [], replyTo: String? = nil) -> NATSMessage {
        NATSMessage(subject: "_INBOX.d", sid: "1", replyTo: replyTo, headers: NATSHeaders(fields, statusCode: code, statusDescription: description))
    }

    static func delivered(_ actions: [NATSOrderedConsumer.Action]) -> [UInt64] {
        actions.compactMap { if case .deliver(_, let delivery) = $0 { delivery.streamSequence } else { nil } }
    }

    @Test func deliversInOrderAndIsCaughtUpWhenNothingIsPending() {
        var consumer = NATSOrderedConsumer(idleHeartbeat: .seconds(5), now: .zero)
        #expect(consumer.start == .lastPerSubject)
        consumer.beginConsumer(at: .zero)
        #expect(consumer.consumerCreated(pending: 2, at: .zero).isEmpty)
        #expect(Self.delivered(consumer.received(Self.delivery(1, stream: 4, pending: 1), at: .seconds(1))) == [4])
        let last = consumer.received(Self.delivery(2, stream: 9, pending: 0), at: .seconds(1))
        #expect(Self.delivered(last) == [9])
        #expect(last.last == .caughtUp)
        #expect(consumer.start == .streamSequence(10))
        #expect(!consumer.received(Self.delivery(3, stream: 11, pending: 0), at: .seconds(2)).contains(.caughtUp), "caught up once")

        var empty = NATSOrderedConsumer(idleHeartbeat: .seconds(5), now: .zero)
        #expect(empty.consumerCreated(pending: 0, at: .zero) == [.caughtUp])
    }

    /// What nats-server 2.9.10 sent a watch started as a leader quit: the state key rewritten and the
    /// lease deleted under it, the state's new value delivered twice, and the last delivery still
    /// counting one pending. Neither the count nor the number of deliveries says caught up (the repeat
    /// used up a consumer sequence); the idle heartbeat after them does.
    @Test func aRepeatedDeliveryLeavesItToTheIdleHeartbeatToSayCaughtUp() {
        var consumer = NATSOrderedConsumer(idleHeartbeat: .seconds(1), now: .zero)
        consumer.beginConsumer(at: .zero)
        #expect(consumer.consumerCreated(pending: 2, at: .zero).isEmpty)
        #expect(Self.delivered(consumer.received(Self.delivery(1, stream: 2, pending: 2), at: .zero)) == [2])
        #expect(Self.delivered(consumer.received(Self.delivery(2, stream: 6, pending: 1), at: .zero)) == [6])
        #expect(consumer.received(Self.delivery(3, stream: 6, pending: 1), at: .zero).isEmpty, "a repeat is neither delivered nor the end")
        let lease = consumer.received(Self.delivery(4, stream: 7, pending: 1), at: .zero)
        #expect(Self.delivered(lease) == [7])
        #expect(!lease.contains(.caughtUp), "four deliveries for two pending at creation: not a count to trust")
        #expect(consumer.received(Self.status(100, "Idle Heartbeat", [("Nats-Last-Consumer", "4"), ("Nats-Last-Stream", "7")]), at: .seconds(1)) == [.caughtUp])
        #expect(consumer.received(Self.status(100, "Idle Heartbeat", [("Nats-Last-Consumer", "4"), ("Nats-Last-Stream", "7")]), at: .seconds(2)).isEmpty, "caught up once")
    }

    @Test func anIdleHeartbeatIsTheEndOnlyWithTheConsumerMadeEverythingReceivedAndNothingStalled() {
        var consumer = NATSOrderedConsumer(idleHeartbeat: .seconds(5), now: .zero)
        consumer.beginConsumer(at: .zero)
        #expect(consumer.received(Self.status(100, "Idle Heartbeat", [("Nats-Last-Consumer", "0")]), at: .zero).isEmpty,
                "before the server answered the creation")
        #expect(consumer.consumerCreated(pending: 5, at: .zero).isEmpty)
        #expect(!consumer.received(Self.delivery(1, stream: 2, pending: 1), at: .zero).contains(.caughtUp))
        #expect(consumer.received(Self.status(100, "Idle Heartbeat", [("Nats-Last-Consumer", "1"), ("Nats-Consumer-Stalled", "$JS.FC.s")]), at: .zero)
            == [.reply(to: "$JS.FC.s")], "stalled: the server has more to send")
        #expect(consumer.received(Self.status(100, "FlowControl Request", replyTo: "$JS.FC.KV_b.x.1"), at: .zero) == [.reply(to: "$JS.FC.KV_b.x.1")])
        #expect(consumer.received(Self.status(100, "Idle Heartbeat", [("Nats-Last-Consumer", "1"), ("Nats-Last-Stream", "2")]), at: .zero) == [.caughtUp])

        var behind = NATSOrderedConsumer(idleHeartbeat: .seconds(5), now: .zero)
        behind.beginConsumer(at: .zero)
        _ = behind.consumerCreated(pending: 5, at: .zero)
        _ = behind.received(Self.delivery(1, stream: 2, pending: 1), at: .zero)
        #expect(!behind.received(Self.status(100, "Idle Heartbeat", [("Nats-Last-Consumer", "2")]), at: .zero).contains(.caughtUp), "one was lost: a restart, not caught up")

        // A consumer made again after a gap waits for its own creation's answer before a heartbeat counts.
        var again = NATSOrderedConsumer(idleHeartbeat: .seconds(5), now: .zero)
        again.beginConsumer(at: .zero)
        _ = again.consumerCreated(pending: 3, at: .zero)
        _ = again.received(Self.delivery(1, stream: 3, pending: 2), at: .zero)
        #expect(again.received(Self.delivery(3, stream: 9, pending: 0), at: .zero) == [.restart(from: .streamSequence(4), reason: "consumer sequence 3 after 1")])
        again.beginConsumer(at: .zero)
        #expect(again.received(Self.status(100, "Idle Heartbeat", [("Nats-Last-Consumer", "0")]), at: .zero).isEmpty)
        _ = again.consumerCreated(pending: 2, at: .zero)
        #expect(Self.delivered(again.received(Self.delivery(1, stream: 4, pending: 1), at: .zero)) == [4])
        #expect(again.received(Self.status(100, "Idle Heartbeat", [("Nats-Last-Consumer", "1")]), at: .zero) == [.caughtUp])
    }

    @Test func aGapRestartsRightAfterTheLastDeliveredAndNothingRepeats() {
        var consumer = NATSOrderedConsumer(idleHeartbeat: .seconds(5), now: .zero)
        _ = consumer.received(Self.delivery(1, stream: 3, pending: 5), at: .zero)
        #expect(consumer.received(Self.delivery(3, stream: 7, pending: 3), at: .zero)
            == [.restart(from: .streamSequence(4), reason: "consumer sequence 3 after 1")])
        consumer.beginConsumer(at: .zero)
        #expect(Self.delivered(consumer.received(Self.delivery(1, stream: 3, pending: 4), at: .zero)).isEmpty, "a repeat is not delivered")
        #expect(Self.delivered(consumer.received(Self.delivery(2, stream: 4, pending: 3), at: .zero)) == [4])
    }

    @Test func heartbeatsAndFlowControlAreAnswered() {
        var consumer = NATSOrderedConsumer(idleHeartbeat: .seconds(5), now: .zero)
        _ = consumer.received(Self.delivery(1, stream: 3, pending: 0), at: .zero)
        #expect(consumer.received(Self.status(100, "Idle Heartbeat", [("Nats-Last-Consumer", "1"), ("Nats-Last-Stream", "3")]), at: .zero).isEmpty)
        #expect(consumer.received(Self.status(100, "FlowControl Request", replyTo: "$JS.FC.KV_b.x.1"), at: .zero) == [.reply(to: "$JS.FC.KV_b.x.1")])
        #expect(consumer.received(Self.status(100, "Idle Heartbeat", [("Nats-Last-Consumer", "1"), ("Nats-Consumer-Stalled", "$JS.FC.s")]), at: .zero)
            == [.reply(to: "$JS.FC.s")])
        #expect(consumer.received(Self.status(100, "Idle Heartbeat", [("Nats-Last-Consumer", "2")]), at: .zero)
            == [.restart(from: .streamSequence(4), reason: "heartbeat says 2 delivered, 1 received")])
        #expect(consumer.received(Self.status(409, "Consumer Deleted"), at: .zero)
            == [.restart(from: .streamSequence(4), reason: "the server said 409 Consumer Deleted")])
        #expect(consumer.received(NATSMessage(subject: "_INBOX.d", sid: "1", payload: [1]), at: .zero).isEmpty, "not from JetStream")
    }

    @Test func silenceForThreeHeartbeatsRestarts() {
        var consumer = NATSOrderedConsumer(idleHeartbeat: .seconds(5), now: .zero)
        _ = consumer.received(Self.delivery(1, stream: 3, pending: 0), at: .seconds(1))
        #expect(consumer.check(at: .seconds(15)).isEmpty)
        #expect(consumer.check(at: .seconds(16)) == [.restart(from: .streamSequence(4), reason: "no heartbeat for 15s")])
        #expect(consumer.check(at: .seconds(17)).isEmpty, "not again at once")
    }

    @Test func resynchronizingStartsOverFromEveryKeysLatest() {
        var consumer = NATSOrderedConsumer(idleHeartbeat: .seconds(5), now: .zero)
        _ = consumer.received(Self.delivery(1, stream: 3, pending: 0), at: .zero)
        consumer.resynchronize()
        #expect(consumer.start == .lastPerSubject)
        consumer.beginConsumer(at: .zero)
        #expect(consumer.received(Self.delivery(1, stream: 3, pending: 0), at: .zero).contains(.caughtUp))
    }

    @Test func ackSubjectsOfBothFormsAndTimestamps() throws {
        let old = try #require(NATSJetStreamDelivery(replySubject: "$JS.ACK.KV_b.cr0UbxY6.1.2.2.1795564975626807553.0"))
        #expect(old == NATSJetStreamDelivery(stream: "KV_b", consumer: "cr0UbxY6", delivered: 1, streamSequence: 2, consumerSequence: 2, timestamp: 1_795_564_975_626_807_553, pending: 0))
        let new = try #require(NATSJetStreamDelivery(replySubject: "$JS.ACK._.ACCHASH.KV_b.c.1.20.7.1795564975626807553.3.rnd"))
        #expect(new.stream == "KV_b" && new.streamSequence == 20 && new.consumerSequence == 7 && new.pending == 3)
        for invalid in ["$JS.ACK.KV_b.c.1.2.2.x.0", "_INBOX.a.b.c.d.e.f.g.h", "$JS.ACK.a.b.c", "$JS.ACK..c.1.2.2.3.0"] {
            #expect(NATSJetStreamDelivery(replySubject: invalid) == nil, "\(invalid)")
        }

        let stamp = try #require(NATSTimestamp.parse("2026-11-24T23:51:58.01603125Z"))
        #expect(abs(stamp.timeIntervalSince1970 - 1_795_564_318.01603125) < 1e-6)
        #expect(NATSTimestamp.parse("2026-11-24T23:51:58Z")?.timeIntervalSince1970 == 1_795_564_318)
        for invalid in ["2026-11-24 23:51:58Z", "2026-13-24T23:51:58Z", "2026-11-24T23:51:58+01:00", "2026-11-24T23:51:58.Z", ""] {
            #expect(NATSTimestamp.parse(invalid) == nil, "\(invalid)")
        }
    }
}
