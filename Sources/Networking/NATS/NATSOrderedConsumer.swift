/// The rules of an ordered push consumer (ADR-17, https://github.com/nats-io/nats-architecture-and-design/blob/main/adr/ADR-17.md),
/// as a value: the watcher feeds it what arrives and performs the actions it returns.
///
/// The server numbers what one consumer delivers 1, 2, 3, … (the consumer sequence in the reply
/// subject, see `NATSJetStreamDelivery`). A number out of turn means messages were lost on the way (our
/// subscription's buffer dropped some, a reconnect lost some): the consumer is dropped and a new one
/// created that starts right after the last stream sequence delivered, so nothing is missed and
/// nothing comes twice. The same when an idle heartbeat (`NATS/1.0 100 Idle Heartbeat`) names another
/// last consumer sequence than ours, when the server says the consumer is gone (a 4xx status), and when
/// no heartbeat has come for three heartbeat intervals (the consumer was lost with a server).
/// Flow control requests (`NATS/1.0 100 FlowControl Request`, with a reply subject) and stalled
/// heartbeats (`Nats-Consumer-Stalled`) are answered with an empty message. Time is passed in.
///
/// Caught up: when a delivery says nothing more is pending, or when an idle heartbeat comes with
/// everything delivered (the server sends one only when it has had nothing to send for a heartbeat
/// interval). The count in the reply subject alone is not enough: with last-per-subject delivery, a key
/// rewritten or deleted while the consumer starts can have its value delivered twice, and the count
/// then stays one above zero until the next write (seen with nats-server 2.9.10: a watch started as the
/// leader quit got the lease's deletion with 1 still pending, never caught up, and so never took the
/// lease). Counting deliveries against the consumer's `num_pending` is no way out: repeats use up
/// consumer sequences, and a value replaced before its turn comes later, so the count can be reached
/// with a key still to come.
struct NATSOrderedConsumer: Sendable, Hashable {
    enum Start: Sendable, Hashable {
        /// The latest message of every subject (the first consumer, and after a resynchronization).
        case lastPerSubject
        /// Everything from this stream sequence on.
        case streamSequence(UInt64)
    }

    enum Action: Sendable, Hashable {
        case deliver(NATSMessage, NATSJetStreamDelivery)
        /// Every message pending when the watch (re)started has been delivered.
        case caughtUp
        /// Publish an empty message to this subject.
        case reply(to: String)
        /// Replace the consumer with one starting at `from`.
        case restart(from: Start, reason: String)
    }

    let idleHeartbeat: Duration
    private(set) var hasCaughtUp = false
    /// The last stream sequence delivered; 0 when none yet (or since a resynchronization).
    private(set) var lastStreamSequence: UInt64 = 0
    /// The last consumer sequence of the current consumer.
    private(set) var consumerSequence: UInt64 = 0
    /// The server has answered the current consumer's creation: only then does an idle heartbeat say
    /// it has nothing more to send.
    private var isCreated = false
    private var lastActivity: Duration

    init(idleHeartbeat: Duration, now: Duration) {
        self.idleHeartbeat = idleHeartbeat
        lastActivity = now
    }

    /// Where the next consumer starts.
    var start: Start {
        lastStreamSequence == 0 ? .lastPerSubject : .streamSequence(lastStreamSequence + 1)
    }

    /// A new consumer is being created: its numbering starts again.
    mutating func beginConsumer(at now: Duration) {
        consumerSequence = 0
        isCreated = false
        lastActivity = now
    }

    /// The server created the consumer with `pending` messages to deliver.
    mutating func consumerCreated(pending: UInt64, at now: Duration) -> [Action] {
        lastActivity = now
        isCreated = true
        guard !hasCaughtUp, pending == 0 else { return [] }
        hasCaughtUp = true
        return [.caughtUp]
    }

    /// The watcher fell behind and lost entries: start over from every key's latest value.
    mutating func resynchronize() {
        lastStreamSequence = 0
        hasCaughtUp = false
    }

    mutating func received(_ message: NATSMessage, at now: Duration) -> [Action] {
        lastActivity = now
        if let status = message.statusCode {
            guard status == 100 else {
                let description = message.headers?.statusDescription ?? ""
                return [.restart(from: start, reason: "the server said \(status)\(description.isEmpty ? "" : " " + description)")]
            }
            var actions: [Action] = []
            if let replyTo = message.replyTo, !replyTo.isEmpty { actions.append(.reply(to: replyTo)) }
            if let stalled = message.headers?["Nats-Consumer-Stalled"], !stalled.isEmpty { actions.append(.reply(to: stalled)) }
            let lastDelivered = message.headers?["Nats-Last-Consumer"].flatMap(UInt64.init)
            if let lastDelivered, lastDelivered != consumerSequence {
                actions.append(.restart(from: start, reason: "heartbeat says \(lastDelivered) delivered, \(consumerSequence) received"))
            } else if !hasCaughtUp, isCreated, lastDelivered != nil, message.replyTo?.isEmpty ?? true,
                      message.headers?["Nats-Consumer-Stalled"] == nil {
                // The server is idle with everything it sent received: there is nothing more to deliver.
                hasCaughtUp = true
                actions.append(.caughtUp)
            }
            return actions
        }
        guard let replyTo = message.replyTo, let delivery = NATSJetStreamDelivery(replySubject: replyTo) else {
            // Not from JetStream (someone published to the deliver subject): not ours to deliver.
            return []
        }
        guard delivery.consumerSequence == consumerSequence + 1 else {
            return [.restart(from: start, reason: "consumer sequence \(delivery.consumerSequence) after \(consumerSequence)")]
        }
        consumerSequence = delivery.consumerSequence
        var actions: [Action] = []
        if delivery.streamSequence > lastStreamSequence {
            lastStreamSequence = delivery.streamSequence
            actions.append(.deliver(message, delivery))
        }
        if !hasCaughtUp, delivery.pending == 0 {
            hasCaughtUp = true
            actions.append(.caughtUp)
        }
        return actions
    }

    /// Three heartbeat intervals without a word: the consumer is gone.
    mutating func check(at now: Duration) -> [Action] {
        guard now - lastActivity >= idleHeartbeat * 3 else { return [] }
        lastActivity = now
        return [.restart(from: start, reason: "no heartbeat for \(WebSocketIOLoop.describe(idleHeartbeat * 3))")]
    }
}
