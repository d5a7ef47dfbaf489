import Foundation
import Locking
import Synchronization

/// A live watch of some keys of a KV bucket: `events` yields every matching key's latest value, then
/// `.caughtUp`, then each change. Like a subscription it lives until `stop()`, the cancellation of the
/// task reading `events`, or the connection's close, whether or not this handle is kept.
///
/// Underneath, an ordered push consumer, as nats.go's `Watch` makes one: `$JS.API.CONSUMER.CREATE.KV_<bucket>`
/// (https://docs.nats.io/reference/jetstream/api/consumer/create) with `deliver_policy:
/// last_per_subject` on the filter subject, no acks, flow control and idle heartbeats, in memory,
/// delivering to an inbox of ours. `NATSOrderedConsumer` holds the rules; this class runs them on a
/// task: it creates a consumer, answers flow control, and replaces the consumer when messages went
/// missing, after every reconnect (a restarted server forgets in-memory consumers), and when
/// heartbeats stop. A replacement starts right after the last revision delivered, so a watch survives
/// a server restart without gaps or repeats.
///
/// `events` holds at most `bufferLimit` events for a consumer that does not take them; when it
/// overflows, the oldest go, and the watch starts over from every key's latest value
/// (`.restarting`), which heals whatever was lost.
///
/// A quote follower reads a watch for every quote, so nothing between the socket and `nextBatch()`
/// is an `AsyncStream`: the I/O thread puts each message straight into the driver's mailbox, the
/// driver puts entries into the consumer's, and under load each side takes what has piled up in one
/// wake-up (`NATSMailbox`).
public final class NATSKeyValueWatch: Sendable {
    private let output: NATSMailbox<NATSKeyValueWatchEvent>
    private let driverTask = DriverTask()

    /// The default: a lost consumer is noticed after three of these without a word (15 to 20 s).
    public static let defaultIdleHeartbeat: Duration = .seconds(5)
    /// Between attempts to create a consumer that failed (while the server restarts, say).
    static let retryDelay: Duration = .milliseconds(250)

    /// `driverIsolation`: the actor the driver runs on, the consumer's own when it has one: handing
    /// a batch from the driver to the consumer then needs no thread to wake.
    init(
        keyValue: NATSKeyValue, filterSubject: String, bufferLimit: Int, idleHeartbeat: Duration = NATSKeyValueWatch.defaultIdleHeartbeat,
        driverIsolation: (any Actor)? = nil
    ) {
        // A consumer that stops listening (its task cancelled) ends the watch.
        let output = NATSMailbox<NATSKeyValueWatchEvent>(limit: max(2, bufferLimit)) { [driverTask] in driverTask.cancel() }
        self.output = output
        let driver = Driver(keyValue: keyValue, filterSubject: filterSubject, bufferLimit: max(2, bufferLimit), idleHeartbeat: idleHeartbeat, output: output)
        driverTask.start { await driver.run(isolation: driverIsolation) }
    }

    /// Every key's latest value, then `.caughtUp`, then each change, until the watch ends.
    public var events: NATSMailboxSequence<NATSKeyValueWatchEvent> { NATSMailboxSequence(output) }

    /// Every event waiting, in order, parking while none does; nil once the watch has ended. Runs on
    /// the caller's actor, so an actor reading a busy watch takes a batch per wake-up without a hop.
    public func nextBatch(isolation actor: isolated (any Actor)? = #isolation) async -> [NATSKeyValueWatchEvent]? {
        await output.nextBatch(isolation: actor)
    }

    /// Ends the watch: the consumer is deleted and `events` finishes.
    public func stop() {
        driverTask.cancel()
    }

    /// The driver's task, which the consumer's mailbox must reach to cancel it before it exists.
    private final class DriverTask: Sendable {
        private let task = Locked<Task<Void, Never>?>(nil)
        private let cancelled = Atomic<Bool>(false)

        func start(_ body: @escaping @Sendable () async -> Void) {
            let task = Task { await body() }
            self.task.withLock { $0 = task }
            if cancelled.load(ordering: .acquiring) { task.cancel() }
        }

        func cancel() {
            cancelled.store(true, ordering: .releasing)
            task.withLock { $0?.cancel() }
        }
    }

    /// Runs the watch on one task; everything it owns stays on that task.
    private final class Driver: Sendable {
        private enum Input: Sendable {
            case message(generation: Int, NATSMessage)
            case reconnected
            case tick
            case retry(generation: Int)
            case closed
        }

        private struct Consumer {
            let generation: Int
            let subscription: NATSSubscription
            var name: String?
        }

        private let keyValue: NATSKeyValue
        private let filterSubject: String
        private let bufferLimit: Int
        private let idleHeartbeat: Duration
        private let output: NATSMailbox<NATSKeyValueWatchEvent>

        init(keyValue: NATSKeyValue, filterSubject: String, bufferLimit: Int, idleHeartbeat: Duration, output: NATSMailbox<NATSKeyValueWatchEvent>) {
            self.keyValue = keyValue
            self.filterSubject = filterSubject
            self.bufferLimit = bufferLimit
            self.idleHeartbeat = idleHeartbeat
            self.output = output
        }

        func run(isolation actor: isolated (any Actor)?) async {
            let connection = keyValue.connection
            // Messages and the rest share one mailbox, so the driver waits on one thing; messages are
            // refused past `bufferLimit` (the gap restarts the consumer), the rest always go in.
            let input = NATSMailbox<Input>()
            let connectionEvents = connection.events()
            let listener = Task {
                for await event in connectionEvents {
                    switch event {
                    case .reconnected: input.push(.reconnected)
                    case .closed: input.push(.closed)
                    default: break
                    }
                }
                input.push(.closed)
            }
            let ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: idleHeartbeat)
                    input.push(.tick)
                }
            }
            let clock = ContinuousClock()
            let start = clock.now
            var machine = NATSOrderedConsumer(idleHeartbeat: idleHeartbeat, now: .zero)
            var consumer: Consumer?
            var generation = 0
            /// Creating a consumer has failed since the last success: `.waiting` was said.
            var failing = false

            /// Replaces the consumer with one starting where the machine says. False once the watch must end.
            func replaceConsumer() async -> Bool {
                if let old = consumer {
                    old.subscription.unsubscribe()
                    if let name = old.name {
                        // Best effort: an ephemeral consumer nobody listens to also goes by itself.
                        try? connection.publish("$JS.API.CONSUMER.DELETE.\(keyValue.streamName).\(name)")
                    }
                    consumer = nil
                }
                generation += 1
                let current = generation
                let subscription: NATSSubscription
                let limit = bufferLimit
                do {
                    subscription = try connection.subscribe(
                        to: connection.newInbox(), push: { input.push(.message(generation: current, $0), refusingAt: limit) }, end: {})
                } catch {
                    return false
                }
                consumer = Consumer(generation: current, subscription: subscription)
                machine.beginConsumer(at: clock.now - start)
                do {
                    let (name, pending) = try await createConsumer(deliverTo: subscription.subject, from: machine.start)
                    consumer?.name = name
                    failing = false
                    return await perform(machine.consumerCreated(pending: pending, at: clock.now - start))
                } catch {
                    if case .connectionClosed = error { return false }
                    if !failing {
                        failing = true
                        output.push(.waiting(reason: error.description))
                    }
                    // The server is away or restarting: try again shortly, or at the reconnect.
                    Task {
                        try? await Task.sleep(for: NATSKeyValueWatch.retryDelay)
                        input.push(.retry(generation: current))
                    }
                    return true
                }
            }

            func perform(_ actions: [NATSOrderedConsumer.Action]) async -> Bool {
                for action in actions {
                    switch action {
                    case .deliver(let message, let delivery):
                        guard let entry = entry(from: message, delivery: delivery) else { continue }
                        switch output.push(.entry(entry)) {
                        case .enqueued: continue
                        case .droppedOldest, .refused:
                            machine.resynchronize()
                            output.push(.restarting(reason: "the watcher fell behind by more than \(bufferLimit) entries"))
                            return await replaceConsumer()
                        case .ended: return false
                        }
                    case .caughtUp:
                        output.push(.caughtUp)
                    case .reply(let subject):
                        try? connection.publish(subject)
                    case .restart:
                        return await replaceConsumer()
                    }
                }
                return true
            }

            var running = await replaceConsumer()
            while running, !Task.isCancelled {
                guard let batch = await input.nextBatch() else { break }
                // One reading of the clock per batch: what arrived together is judged as one moment.
                let now = clock.now - start
                for next in batch {
                    switch next {
                    case .message(let messageGeneration, let message):
                        guard messageGeneration == generation else { continue }
                        running = await perform(machine.received(message, at: now))
                    case .reconnected:
                        running = await replaceConsumer()
                    case .tick:
                        running = await perform(machine.check(at: clock.now - start))
                    case .retry(let retryGeneration):
                        if retryGeneration == generation { running = await replaceConsumer() }
                    case .closed:
                        running = false
                    }
                    if !running { break }
                }
            }

            listener.cancel()
            ticker.cancel()
            if let consumer {
                consumer.subscription.unsubscribe()
                if let name = consumer.name { try? connection.publish("$JS.API.CONSUMER.DELETE.\(keyValue.streamName).\(name)") }
            }
            input.cancel()
            output.finish()
        }

        private struct ConsumerRequest: Encodable {
            struct Configuration: Encodable {
                var deliverSubject: String
                var deliverPolicy: String
                var optStartSeq: UInt64?
                var filterSubject: String
                var ackPolicy = "none"
                var maxDeliver = 1
                var flowControl = true
                var idleHeartbeat: Int64
                var memStorage = true
                var numReplicas = 1
                var replayPolicy = "instant"
                var inactiveThreshold: Int64

                enum CodingKeys: String, CodingKey {
                    case deliverSubject = "deliver_subject"
                    case deliverPolicy = "deliver_policy"
                    case optStartSeq = "opt_start_seq"
                    case filterSubject = "filter_subject"
                    case ackPolicy = "ack_policy"
                    case maxDeliver = "max_deliver"
                    case flowControl = "flow_control"
                    case idleHeartbeat = "idle_heartbeat"
                    case memStorage = "mem_storage"
                    case numReplicas = "num_replicas"
                    case replayPolicy = "replay_policy"
                    case inactiveThreshold = "inactive_threshold"
                }
            }

            var streamName: String
            var config: Configuration

            enum CodingKeys: String, CodingKey {
                case streamName = "stream_name"
                case config
            }
        }

        private struct ConsumerResponse: Decodable {
            var error: NATSJetStreamAPIError?
            var name: String?
            var numPending: UInt64?

            enum CodingKeys: String, CodingKey {
                case error, name
                case numPending = "num_pending"
            }
        }

        private func createConsumer(deliverTo subject: String, from start: NATSOrderedConsumer.Start) async throws(NATSError) -> (name: String?, pending: UInt64) {
            let (policy, sequence): (String, UInt64?) = switch start {
            case .lastPerSubject: ("last_per_subject", nil)
            case .streamSequence(let sequence): ("by_start_sequence", sequence)
            }
            let request = ConsumerRequest(streamName: keyValue.streamName, config: .init(
                deliverSubject: subject, deliverPolicy: policy, optStartSeq: sequence, filterSubject: filterSubject,
                idleHeartbeat: idleHeartbeat.wholeNanoseconds,
                inactiveThreshold: Duration.seconds(300).wholeNanoseconds))
            let apiSubject = "$JS.API.CONSUMER.CREATE." + keyValue.streamName
            let reply = try await keyValue.apiRequest(apiSubject, body: request)
            let answer = try NATSKeyValue.decode(ConsumerResponse.self, from: reply, subject: apiSubject)
            if let error = answer.error { throw .jetStream(NATSKeyValue.sanitized(error)) }
            return (answer.name, answer.numPending ?? 0)
        }

        private func entry(from message: NATSMessage, delivery: NATSJetStreamDelivery) -> NATSKeyValueEntry? {
            let prefix = keyValue.subjectPrefix
            guard message.subject.hasPrefix(prefix) else { return nil }
            return NATSKeyValueEntry(
                bucket: keyValue.bucket, key: String(message.subject.dropFirst(prefix.count)), value: message.payload,
                revision: delivery.streamSequence, created: Date(timeIntervalSince1970: Double(delivery.timestamp) / 1e9),
                operation: NATSKeyValueEntry.operation(of: message.headers), pending: delivery.pending)
        }
    }
}
