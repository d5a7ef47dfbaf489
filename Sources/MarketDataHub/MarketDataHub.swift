import Domain
import Locking

/// Live quotes for the same symbols from every streaming broker, shared by any number of subscribers.
///
/// The actor only carries out what `HubStateMachine` decides: it opens and closes upstream sessions,
/// forwards subscribe/unsubscribe to them, sleeps on the injected clock before reconnecting, and
/// moves quotes into the shared slots that subscribers drain (see `SubscriberMailbox`).
public actor MarketDataHub: MarketFeed {
    private typealias UpstreamID = HubStateMachine.UpstreamID

    /// The delivery side of one key: its shared slot and the mailboxes that follow it.
    private struct KeyDelivery {
        let slot: QuoteSlot
        var followers: [SubscriberMailbox]
    }

    private let brokerList: [ServiceBranding]
    private let services: [String: AnyStreamingQuoteService]
    /// Brokers that answer requests, for snapshots (`refresh`); their answers take the same path as
    /// streamed quotes.
    private let snapshotSources: [any QuoteService]
    /// Per snapshot source (same index): what is asked and waiting, and the request under way with the
    /// number that tells its answer from a cancelled one's.
    private var snapshotQueues: [SnapshotQueue]
    private var snapshotRequests: [Int: (number: Int, task: Task<Void, Never>)] = [:]
    private var nextSnapshotRequest = 0
    private let brokerIndex: [String: Int]
    private let clock: any Clock<Duration>
    /// Time on `clock` since the hub was made: how the machine tells a session that died young.
    private let elapsed: @Sendable () -> Duration
    private let board: BrokerStateBoard
    private var machine: HubStateMachine
    private var mailboxes: [Int: SubscriberMailbox] = [:]
    /// The mailboxes above that belong to a `MarketFeedGroup`, by the same id.
    private var groups: [Int: GroupMailbox] = [:]
    private var deliveries: [QuoteKey: KeyDelivery] = [:]
    private var connections: [UpstreamID: UpstreamConnection] = [:]
    private var reconnects: [String: Task<Void, Never>] = [:]
    private var nextSubscriberID = 0
    /// Reused for every upstream event, so a quote allocates no array of actions.
    private var actionBuffer: [HubStateMachine.Action] = []

    /// `services` must have distinct `branding.id`s; ids key rows, caches and persisted state.
    public init(
        services: [AnyStreamingQuoteService], snapshotSources: [any QuoteService] = [],
        clock: any Clock<Duration> = ContinuousClock(), backoff: BackoffPolicy = BackoffPolicy(), randomSeed: UInt64 = 0
    ) {
        self.snapshotSources = snapshotSources
        snapshotQueues = Array(repeating: SnapshotQueue(), count: snapshotSources.count)
        let ids = services.map(\.branding.id)
        precondition(Set(ids).count == ids.count, "MarketDataHub: duplicate broker ids in \(ids)")
        brokerList = services.map(\.branding)
        self.services = Dictionary(uniqueKeysWithValues: services.map { ($0.branding.id, $0) })
        brokerIndex = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        self.clock = clock
        elapsed = Self.stopwatch(clock)
        board = BrokerStateBoard(brokers: ids)
        machine = HubStateMachine(
            brokers: ids, polled: Set(services.filter(\.isPolled).map(\.branding.id)), backoff: backoff, randomSeed: randomSeed)
    }

    public nonisolated var brokers: [ServiceBranding] { brokerList }

    public func subscribe(symbols: Set<String>) async -> MarketFeedSubscription {
        let id = nextSubscriberID
        nextSubscriberID += 1
        let mailbox = SubscriberMailbox(id: id, board: board)
        mailboxes[id] = mailbox
        run(machine.addSubscriber(id, symbols: symbols))
        let lease = SubscriberLease(mailbox: mailbox, hub: self)
        return MarketFeedSubscription(
            updates: MarketUpdates(source: lease),
            setSymbols: { symbols in await lease.hub.setSymbols(symbols, for: lease.mailbox.id) },
            cancel: { await lease.hub.removeSubscriber(lease.mailbox.id) }
        )
    }

    /// A group of subscribers that share one mailbox and one wake-up per batch (see `MarketFeedGroup`),
    /// with no members yet. To the state machine it is one subscriber following its members' symbols.
    public func subscribeGroup() -> MarketFeedGroup {
        let id = nextSubscriberID
        nextSubscriberID += 1
        let mailbox = SubscriberMailbox(id: id, board: board)
        mailboxes[id] = mailbox
        let group = GroupMailbox(mailbox: mailbox, hub: self)
        groups[id] = group
        run(machine.addSubscriber(id, symbols: []))
        return MarketFeedGroup(group: group)
    }

    public func shutdown() async {
        let open = Array(connections.values)
        for request in snapshotRequests.values { request.task.cancel() }
        snapshotRequests = [:]
        for index in snapshotQueues.indices { snapshotQueues[index].clear() }
        run(machine.shutdown())
        for connection in open { await connection.waitUntilClosed() }
    }

    // MARK: Inputs to the state machine

    func setSymbols(_ symbols: Set<String>, for id: Int) {
        run(machine.setSymbols(symbols, for: id))
    }

    func removeSubscriber(_ id: Int) {
        run(machine.removeSubscriber(id))
    }

    // MARK: Group members

    func join(_ member: MarketFeedGroupMember, symbols: Set<String>) {
        let group = member.group
        guard groups[group.id] === group, member.isActive else {
            member.deactivate()
            return
        }
        setSymbols(symbols, of: member, in: group)
    }

    func setSymbols(_ symbols: Set<String>, of member: MarketFeedGroupMember) {
        let group = member.group
        guard groups[group.id] === group, member.isActive else { return }
        setSymbols(symbols, of: member, in: group)
    }

    func leave(_ member: MarketFeedGroupMember) {
        let group = member.group
        guard groups[group.id] === group else { return }
        setSymbols([], of: member, in: group)
    }

    private func setSymbols(_ symbols: Set<String>, of member: MarketFeedGroupMember, in group: GroupMailbox) {
        let change = group.setSymbols(symbols, of: member)
        owe(member, change.alreadyFollowed)
        if change.changesGroup { run(machine.setSymbols(group.symbols, for: group.id)) }
    }

    /// A member that joins symbols its group already follows gets their cached values on its own; the
    /// group's newly followed symbols come through the group's mailbox like any subscriber's.
    private func owe(_ member: MarketFeedGroupMember, _ symbols: Set<String>) {
        guard !symbols.isEmpty else { return }
        let replay = machine.replay(for: symbols)
        if !replay.quotes.isEmpty || !replay.failures.isEmpty { member.group.owe(replay, to: member) }
    }

    private func opened(_ session: any QuoteStreamSession, as id: UpstreamID) {
        // The reader holds the hub while the session is open; `shutdown()` closes every session.
        connections[id] = UpstreamConnection(
            id: id, session: session, read: { events in await self.read(events, from: id) }
        )
        run(machine.upstreamOpened(id, at: elapsed()))
    }

    /// Every event of one session, read on the hub: the wait resumes on the hub's executor, so a batch
    /// costs one wake-up of the hub rather than a reader task's and then the hub's, and everything that
    /// arrived meanwhile is taken in one batch and handed to the machine before its actions run.
    private func read(_ events: QuoteEvents, from id: UpstreamID) async {
        let end: BrokerError?
        do {
            while let batch = try await events.nextBatch() {
                machine.upstreamReceived(batch, from: id, into: &actionBuffer)
                run(actionBuffer)
                actionBuffer.removeAll(keepingCapacity: true)
            }
            end = nil
        } catch let error as BrokerError {
            end = error
        } catch {
            end = .network(String(describing: error))
        }
        // Cancelled means the hub closed this session itself; it needs no report.
        if !Task.isCancelled { ended(id, error: end) }
    }

    private func openFailed(_ id: UpstreamID, error: BrokerError) {
        run(machine.upstreamOpenFailed(id, error: error))
    }

    /// Every source is asked at once; each answer is handed in as it comes, so a slow or failing broker
    /// neither delays nor hides the others. A source still answering an earlier refresh gets these
    /// symbols when it is done (`SnapshotQueue`).
    public func refresh(_ symbols: Set<String>) {
        for index in snapshotSources.indices {
            if let now = snapshotQueues[index].ask(symbols) { requestSnapshot(now, from: index) }
        }
    }

    private func requestSnapshot(_ symbols: Set<String>, from index: Int) {
        let source = snapshotSources[index]
        let asked = symbols.sorted()
        let number = nextSnapshotRequest
        nextSnapshotRequest += 1
        let task = Task.preferred { [weak self] in
            var results: [String: Result<CommonQuote, BrokerError>] = [:]
            do throws(BrokerError) {
                let answered = try await source.quotes(for: asked)
                for symbol in asked { results[symbol] = answered[symbol] }
            } catch {
                for symbol in asked { results[symbol] = .failure(error) }
            }
            await self?.snapshotArrived(results, from: index, request: number)
        }
        snapshotRequests[index] = (number, task)
    }

    private func snapshotArrived(_ results: [String: Result<CommonQuote, BrokerError>], from index: Int, request number: Int) {
        // A request cancelled by `shutdown` answers too, after its queue was cleared.
        guard snapshotRequests[index]?.number == number else { return }
        snapshotRequests[index] = nil
        machine.snapshotReceived(results, from: snapshotSources[index].branding.id, into: &actionBuffer)
        run(actionBuffer)
        actionBuffer.removeAll(keepingCapacity: true)
        if let next = snapshotQueues[index].finished(following: { machine.demand(for: $0) > 0 }) {
            requestSnapshot(next, from: index)
        }
    }

    private func ended(_ id: UpstreamID, error: BrokerError?) {
        run(machine.upstreamEnded(id, error: error, at: elapsed()))
    }

    private func reconnectDue(_ id: UpstreamID) {
        reconnects[id.broker] = nil
        run(machine.reconnectDue(id))
    }

    // MARK: Carrying out actions

    private func run(_ actions: [HubStateMachine.Action]) {
        // By index: a `for action in actions` loop copied every action, and with it its quote.
        for index in actions.indices {
            switch actions[index] {
            case .openUpstream(let id):
                open(id)
            case .subscribeUpstream(let id, let symbols):
                connections[id]?.send(.subscribe(symbols))
            case .unsubscribeUpstream(let id, let symbols):
                connections[id]?.send(.unsubscribe(symbols))
            case .closeUpstream(let id):
                connections.removeValue(forKey: id)?.close()
            case .scheduleReconnect(let id, _, let delay):
                reconnects[id.broker]?.cancel()
                reconnects[id.broker] = Task.preferred { [weak self, clock] in
                    do { try await clock.sleep(for: delay) } catch { return }
                    await self?.reconnectDue(id)
                }
            case .cancelReconnect(let broker):
                reconnects.removeValue(forKey: broker)?.cancel()
            case .follow(let subscriber, let keys, let replay):
                follow(subscriber, keys: keys, replay: replay)
            case .unfollow(let subscriber, let keys):
                if let mailbox = mailboxes[subscriber] { unfollow(mailbox, keys: keys) }
            case .finishSubscriber(let subscriber):
                guard let mailbox = mailboxes.removeValue(forKey: subscriber) else { break }
                unfollow(mailbox, keys: mailbox.followedKeys)
                mailbox.finish()
                groups.removeValue(forKey: subscriber)?.dissolve()
            case .publishQuote(let key, let quote):
                publish(quote, at: key)
            case .publishFailure(let key, let failure):
                publish(failure, at: key)
            case .publishBrokerState(let broker, let state):
                publishBrokerState(broker, state)
            case .publishSkippedFrames(let broker, let count):
                guard let index = brokerIndex[broker] else { break }
                board.setSkippedFrames(count, at: index)
                for mailbox in mailboxes.values { mailbox.signalOutsideSlots() }
            }
        }
    }

    private func publish(_ quote: CommonQuote, at key: QuoteKey) {
        guard let delivery = deliveries[key] else { return }
        delivery.slot.store(quote)
        for mailbox in delivery.followers { mailbox.signal(changed: delivery.slot) }
    }

    private func publish(_ failure: BrokerError, at key: QuoteKey) {
        guard let delivery = deliveries[key] else { return }
        delivery.slot.store(failure)
        for mailbox in delivery.followers { mailbox.signal(changed: delivery.slot) }
    }

    private func publishBrokerState(_ broker: String, _ state: BrokerConnectionState) {
        guard let index = brokerIndex[broker] else { return }
        board.set(state, at: index)
        for mailbox in mailboxes.values { mailbox.signalOutsideSlots() }
    }

    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let origin = clock.now
        return { origin.duration(to: clock.now) }
    }

    private func open(_ id: UpstreamID) {
        guard let service = services[id.broker] else { return }
        Task.preferred { [weak self] in
            do throws(BrokerError) {
                let session = try await service.openSession()
                if let self {
                    await self.opened(session, as: id)
                } else {
                    await session.close()
                }
            } catch {
                await self?.openFailed(id, error: error)
            }
        }
    }

    private func follow(_ subscriber: Int, keys: Set<QuoteKey>, replay: MarketUpdate) {
        guard let mailbox = mailboxes[subscriber] else { return }
        var slots: [QuoteSlot] = []
        slots.reserveCapacity(keys.count)
        for key in keys {
            if let index = deliveries.index(forKey: key) {
                deliveries.values[index].followers.append(mailbox)
                slots.append(deliveries.values[index].slot)
            } else {
                let slot = QuoteSlot(key: key)
                deliveries[key] = KeyDelivery(slot: slot, followers: [mailbox])
                slots.append(slot)
            }
        }
        mailbox.follow(slots, replay: replay)
    }

    private func unfollow(_ mailbox: SubscriberMailbox, keys: some Collection<QuoteKey>) {
        for key in keys {
            deliveries[key]?.followers.removeAll { $0 === mailbox }
            if deliveries[key]?.followers.isEmpty == true { deliveries[key] = nil }
        }
        mailbox.unfollow(keys)
    }
}
