import Domain
import Foundation
import Networking

/// One process's part in the bus for one broker, for as long as the hub keeps the session open.
///
/// - It always publishes its demand (`demand.<instance>.<broker>`), on change and as a heartbeat, and
///   while it does not hold the broker's connection it follows the quotes the leader writes
///   (`quote.<broker>.>`, latest per key first, so a late joiner has every current quote at once),
///   passing on those of the symbols it shows.
/// - It watches `lease.<broker>` and `state.<broker>`, and contends for the lease when `LeaseMachine`
///   says so. Holding it, it opens the broker's own session, subscribes it to the union of every live
///   process's demand (`DemandBook`), writes each quote and connection change to the bucket, and passes
///   on its own symbols' quotes straight from the broker.
/// - Losing the lease closes the broker's session; closing the session lets go of the lease at once
///   (a delete expecting the revision held), so another process takes over without waiting for it to
///   expire. A crashed leader's lease expires after `LeasePolicy.timeToLive`.
///
/// Writes of quotes, states and demand are plain publications to the bucket's subjects (JetStream stores
/// them; no ack is awaited, so a quote costs one enqueue); lease writes wait for JetStream's answer,
/// which is what makes them safe.
actor BusQuoteSession: QuoteStreamSession {
    nonisolated let events: QuoteEvents
    private let output: QuoteEvents.Continuation
    private let broker: String
    private let keyValue: NATSKeyValue
    private let settings: BusSettings
    private let upstreamService: AnyStreamingQuoteService?
    private let routes: BusRouteBoard
    private let origin = ContinuousClock.now
    private let leaseKey: String
    private let stateSubject: String
    private let demandSubject: String

    private var machine: LeaseMachine
    private var book: DemandBook
    private var demand: Set<String> = []
    private var demandWritten: (symbols: Set<String>, at: Duration)?
    /// The latest quote of every symbol the bus carries for this broker, so a symbol this process
    /// starts to show has its price at once.
    private var fromBus: [String: CommonQuote] = [:]
    private var leaderState: BusBrokerState?
    private var controlCaughtUp = false
    private var busUp = true
    private var upstream: LeaderUpstream?
    private var upstreamGeneration = 0
    private var upstreamSymbols: Set<String> = []
    private var quoteSubjects: [String: String] = [:]
    /// The latest quote of each symbol the connection refused (its outbound buffer full: the server
    /// slower than the broker), written again once there is room. Without this a refused quote was
    /// dropped, and a symbol's last price before a lull never reached the followers. Kept apart from
    /// `fromBus`, which the watch sets back to what the bus held before.
    private var unwritten: [String: CommonQuote] = [:]
    /// The broker's state and this process's demand when the connection refused them, latest per
    /// subject: written again with the quotes, and before them, since a lost `live` or a lost symbol
    /// would otherwise wait for the next change or heartbeat. Kept whoever leads, until written or closed.
    private var unwrittenRecords: [String: [UInt8]] = [:]
    private var rewriting: Task<Void, Never>?
    private var symbolsByKey: [String: String] = [:]
    private var tasks: [Task<Void, Never>] = []
    private var watches: [NATSKeyValueWatch] = []
    /// The watch of the broker's quotes and the task reading it, while this process follows
    /// (`watchQuotes()`).
    private var quotesWatch: (watch: NATSKeyValueWatch, reader: Task<Void, Never>)?
    private var announced: FollowerStatus?
    private var isClosed = false

    private struct LeaderUpstream {
        let session: any QuoteStreamSession
        let reader: Task<Void, Never>
        let generation: Int
    }

    /// What a follower last told its hub.
    private enum FollowerStatus: Hashable {
        case live
        case busLost
        case noLeader
        case leaderNotLive(String)
    }

    static func start(
        broker: String, keyValue: NATSKeyValue, settings: BusSettings, upstream: AnyStreamingQuoteService?, routes: BusRouteBoard
    ) async -> BusQuoteSession {
        let session = BusQuoteSession(broker: broker, keyValue: keyValue, settings: settings, upstream: upstream, routes: routes)
        await session.begin()
        return session
    }

    private init(broker: String, keyValue: NATSKeyValue, settings: BusSettings, upstream: AnyStreamingQuoteService?, routes: BusRouteBoard) {
        (events, output) = QuoteEvents.makeStream(bufferingPolicy: .bufferingNewest(65_536))
        self.broker = broker
        self.keyValue = keyValue
        self.settings = settings
        self.upstreamService = upstream
        self.routes = routes
        let me = BusLease(holder: settings.holder, instance: settings.instance, pinned: settings.role == .leader)
        machine = LeaseMachine(me: me, policy: settings.lease, canLead: upstream != nil)
        book = DemandBook(timeToLive: settings.demandTimeToLive)
        leaseKey = BusKeys.lease(broker: broker)
        let prefix = "$KV.\(keyValue.bucket)."
        stateSubject = prefix + BusKeys.state(broker: broker)
        demandSubject = prefix + BusKeys.demand(instance: settings.instance, broker: broker)
    }

    private var now: Duration { origin.duration(to: .now) }

    private func begin() {
        routes.set(.follower(leader: nil), for: broker)
        do {
            try watchQuotes()
            let control = try keyValue.watch(BusKeys.leaseAndState(broker: broker), bufferLimit: 1_024, idleHeartbeat: Self.watchHeartbeat)
            let demands = try keyValue.watch(BusKeys.demands(broker: broker), bufferLimit: 4_096, idleHeartbeat: Self.watchHeartbeat)
            watches = [control, demands]
            // These tasks run on this actor (they use `self` without a hop), and a busy watch hands
            // over what has piled up in one batch: one wake-up for many quotes.
            tasks.append(Task { while let batch = await control.nextBatch() { for event in batch { await self.controlWatch(event) } } })
            tasks.append(Task { while let batch = await demands.nextBatch() { for event in batch { await self.demandWatch(event) } } })
        } catch {
            output.finish(throwing: BrokerError.network("cannot watch the bus for \(broker): \(error)"))
            return
        }
        let connectionEvents = keyValue.connection.events()
        tasks.append(Task { for await event in connectionEvents { self.connectionChanged(event) } })
        let tick = min(settings.lease.renewEvery, settings.demandHeartbeat) / 4
        tasks.append(Task {
            while !Task.isCancelled {
                do { try await Task.sleep(for: tick) } catch { return }
                await self.tick()
            }
        })
    }

    // MARK: QuoteStreamSession

    func subscribe(_ symbols: Set<String>) async {
        demand.formUnion(symbols)
        writeDemand()
        if upstream != nil {
            await syncUpstream()
        } else {
            for symbol in symbols.sorted() { if let quote = fromBus[symbol] { output.yield(.quote(quote)) } }
        }
    }

    func unsubscribe(_ symbols: Set<String>) async {
        demand.subtract(symbols)
        writeDemand()
        if upstream != nil { await syncUpstream() }
    }

    func close() async {
        guard !isClosed else { return }
        isClosed = true
        for task in tasks { task.cancel() }
        rewriting?.cancel()
        for watch in watches { watch.stop() }
        stopWatchingQuotes()
        if let upstream {
            self.upstream = nil
            upstream.reader.cancel()
            await upstream.session.close()
        }
        // Letting go is done on a task of its own: `close()` is often called from a task being cancelled
        // (a relay stopping on SIGTERM, the app quitting), and a cancelled task's requests are abandoned
        // at once, which would leave the lease to expire instead of passing on now.
        // With the bus away there is no one to tell, and a request would only wait out its timeout
        // before the app could quit: the lease then expires and the demand lapses, as for a crash.
        let release = machine.releaseRevision
        if release != nil { publishState(.down, reason: "the leader \(settings.holder) quit") }
        let (keyValue, leaseKey, demandKey, instance) = (keyValue, leaseKey, BusKeys.demand(instance: settings.instance, broker: broker), settings.instance)
        if busUp { await Task {
            if let release { await Self.letGo(leaseKey, heldAt: release, by: instance, in: keyValue) }
            _ = try? await keyValue.delete(demandKey)
        }.value }
        output.finish()
    }

    /// Deletes the lease held at `revision`. A renewal still in flight when the session closed may have
    /// moved it on (the server applies it before this delete, both being sent on one connection): the
    /// lease is then read again and deleted at its new revision if it is still this process's, rather
    /// than left to expire.
    private static func letGo(_ leaseKey: String, heldAt revision: UInt64, by instance: String, in keyValue: NATSKeyValue) async {
        do {
            _ = try await keyValue.delete(leaseKey, expectedRevision: revision)
        } catch {
            guard case .wrongLastRevision = error, let entry = try? await keyValue.get(leaseKey),
                  case .success(let lease) = BusRecords.decode(BusLease.self, from: entry.value, what: "the lease"),
                  lease.instance == instance
            else { return }
            _ = try? await keyValue.delete(leaseKey, expectedRevision: entry.revision)
        }
    }

    // MARK: What the bus says

    private func quoteWatch(_ event: NATSKeyValueWatchEvent) {
        guard case .entry(let entry) = event, entry.operation == .put, let symbol = symbol(ofQuoteKey: entry.key) else { return }
        switch BusQuoteWire.decode(entry.value, symbol: symbol) {
        case .success(let quote):
            fromBus[symbol] = quote
            if upstream == nil, demand.contains(symbol) { output.yield(.quote(quote)) }
        case .failure(let error):
            if upstream == nil, demand.contains(symbol) { output.yield(.skippedFrame(reason: "from the bus: \(error)")) }
        }
    }

    /// The symbol a quote key names, parsed once per key: a follower reads one for every quote.
    private func symbol(ofQuoteKey key: String) -> String? {
        if let known = symbolsByKey[key] { return known }
        guard case .quote(_, let symbol)? = BusKeys.parse(key) else { return nil }
        symbolsByKey[key] = symbol
        return symbol
    }

    private func controlWatch(_ event: NATSKeyValueWatchEvent) async {
        switch event {
        case .entry(let entry):
            switch BusKeys.parse(entry.key) {
            case .lease?:
                let lease: BusLease? = entry.operation == .put
                    ? try? BusRecords.decode(BusLease.self, from: entry.value, what: "the lease of \(broker)").get()
                    : nil
                let wasLeader = machine.role == .leader
                machine.observed(lease, revision: entry.revision, at: now)
                trace("lease at revision \(entry.revision): \(lease.map { "\($0.holder) (\($0.instance))" } ?? "none")")
                if wasLeader, machine.role == .follower {
                    trace("another process holds the lease now: stepping down")
                    dropUpstream()
                }
            case .state?:
                leaderState = entry.operation == .put
                    ? try? BusRecords.decode(BusBrokerState.self, from: entry.value, what: "the state of \(broker)").get()
                    : nil
            default:
                break
            }
        case .caughtUp:
            controlCaughtUp = true
            machine.caughtUp(at: now)
            await tick()
        case .waiting, .restarting:
            break
        }
        announce()
    }

    private func demandWatch(_ event: NATSKeyValueWatchEvent) async {
        guard case .entry(let entry) = event, case .demand(let instance, _)? = BusKeys.parse(entry.key),
              instance != settings.instance
        else { return }
        if entry.operation == .put, case .success(let demand) = BusRecords.decode(BusDemand.self, from: entry.value, what: "a demand for \(broker)") {
            book.set(Set(demand.symbols), for: instance, at: now)
        } else {
            book.remove(instance)
        }
        if upstream != nil { await syncUpstream() }
    }

    private func connectionChanged(_ event: NATSConnectionEvent) {
        switch event {
        case .disconnected, .closed:
            busUp = false
            machine.busLost()
        case .connected, .reconnected:
            trace("bus connection: \(event)")
            busUp = true
            machine.busReturned(at: now)
            book.busReturned(at: now)
        default: return
        }
        announce()
    }

    // MARK: Time

    private func tick() async {
        guard !isClosed else { return }
        let now = self.now
        // While the bus is down no heartbeat can arrive: nobody's demand is judged by it.
        if busUp, !book.expire(at: now).isEmpty, upstream != nil { await syncUpstream() }
        if let written = demandWritten, now - written.at >= settings.demandHeartbeat { writeDemand() }
        if demandWritten == nil { writeDemand() }
        let wasLeader = machine.role == .leader
        let action = machine.next(at: now)
        if wasLeader, machine.role == .follower {
            // Refused after a write that got no answer, and the watch never showed whose write won.
            trace("no word from the watch on the lease since a refused renewal: stepping down")
            dropUpstream()
        }
        if let action { await perform(action) }
        announce()
    }

    private func perform(_ action: LeaseMachine.Action) async {
        let wasLeader = machine.role == .leader
        defer {
            if wasLeader != (machine.role == .leader) { trace("\(machine.role == .leader ? "took" : "lost") the lease after \(action)") }
        }
        do {
            let revision: UInt64
            switch action {
            case .create(let lease):
                revision = try await keyValue.create(leaseKey, BusRecords.encode(lease))
            case .write(let lease, let expected):
                revision = try await keyValue.update(leaseKey, BusRecords.encode(lease), expectedRevision: expected)
            }
            machine.written(revision: revision, at: now)
        } catch {
            trace("lease write \(action) failed: \(error)")
            switch error {
            case .wrongLastRevision:
                machine.refused(at: now)
                if machine.role == .leader { trace("the renewal was refused, but the key may have moved on by this process's own earlier write: still leading, as the watch shows") }
            // Nobody took the write: it cannot land later.
            case .jetStreamUnavailable, .noResponders: machine.failed(at: now, mayHaveLanded: false)
            default: machine.failed(at: now)
            }
        }
        guard !isClosed else { return }
        if !wasLeader, machine.role == .leader { await becomeLeader() }
        if wasLeader, machine.role == .follower { dropUpstream() }
    }

    // MARK: Leading

    private func becomeLeader() async {
        guard let service = upstreamService, upstream == nil else { return }
        publishState(.connecting)
        announce()
        let session: any QuoteStreamSession
        do {
            session = try await service.openSession()
        } catch {
            let held = machine.releaseRevision
            machine.upstreamFailed(at: now)
            publishState(.down, reason: "\(settings.holder) cannot connect: \(error.description)")
            if let held { _ = try? await keyValue.delete(leaseKey, expectedRevision: held) }
            output.yield(.retrying(at: Date().addingTimeInterval(Double(settings.lease.standDownAfterFailure.components.seconds)), after: error))
            return
        }
        guard machine.role == .leader, !isClosed, upstream == nil else {
            await session.close()
            return
        }
        upstreamGeneration += 1
        let generation = upstreamGeneration
        let reader = Task {
            do {
                for try await event in session.events { self.upstreamEvent(event, generation: generation) }
                await self.upstreamEnded(nil, generation: generation)
            } catch {
                await self.upstreamEnded(error, generation: generation)
            }
        }
        upstream = LeaderUpstream(session: session, reader: reader, generation: generation)
        upstreamSymbols = []
        // The leader writes every quote: reading them back from the bus would only cost it a delivery,
        // a parse and a wake-up of this actor per quote.
        stopWatchingQuotes()
        await syncUpstream()
    }

    private func syncUpstream() async {
        guard let upstream else { return }
        let wanted = book.union(with: demand)
        let added = wanted.subtracting(upstreamSymbols)
        let removed = upstreamSymbols.subtracting(wanted)
        upstreamSymbols = wanted
        if !added.isEmpty { await upstream.session.subscribe(added) }
        if !removed.isEmpty { await upstream.session.unsubscribe(removed) }
    }

    private func upstreamEvent(_ event: QuoteEvent, generation: Int) {
        guard upstream?.generation == generation else { return }
        switch event {
        case .quote(let quote):
            if demand.contains(quote.symbol) { output.yield(event) }
            publish(quote)
        case .live:
            output.yield(event)
            publishState(.live)
        case .retrying(_, let error):
            output.yield(event)
            publishState(.retrying, reason: error.description)
        case .symbolFailed(let symbol, _):
            if demand.contains(symbol) { output.yield(event) }
        case .skippedFrame:
            output.yield(event)
        }
    }

    /// The broker's session ended under a leader: followers hear it from the state key, and this session
    /// ends with the same error, so the hub reconnects as it would without the bus (a new session finds
    /// the lease still its own and takes it back at once, or another process has it by then).
    private func upstreamEnded(_ error: (any Error)?, generation: Int) async {
        guard upstream?.generation == generation, !isClosed else { return }
        let reason = (error as? BrokerError)?.description ?? error.map { String(describing: $0) } ?? "the stream ended"
        publishState(.retrying, reason: "connection lost: \(reason)")
        upstream = nil
        await close()
        output.finish(throwing: error ?? BrokerError.network("the stream ended"))
    }

    /// Lost the lease: the broker's session goes, and what this process shows comes from the bus again.
    private func dropUpstream() {
        guard let upstream else { return }
        self.upstream = nil
        upstreamSymbols = []
        unwritten = [:]
        upstream.reader.cancel()
        Task { await upstream.session.close() }
        for symbol in demand.sorted() { if let quote = fromBus[symbol] { output.yield(.quote(quote)) } }
        // The new leader's quotes, from every key's latest on.
        do {
            try watchQuotes()
        } catch {
            output.finish(throwing: BrokerError.network("cannot watch the bus for \(broker): \(error)"))
        }
    }

    /// A one-second heartbeat: a consumer lost with a cluster node is replaced within about 4 s rather
    /// than the 15 to 20 s of the default, for one small message a second per watch.
    private static let watchHeartbeat = Duration.seconds(1)

    /// Watches the broker's quotes, unless already watching. Only a follower does: the leader sets
    /// `fromBus` as it writes. A watch delivers every key's latest value first, so a process that stops
    /// leading catches up with the new leader at once. Reading its own quotes back cost the leader a
    /// delivery from the server, a parse and a wake-up of the watch per quote: on the bus benchmark at
    /// 10,000 quotes/s the process's CPU per quote went from 94–102 µs to 85–91 µs without it.
    private func watchQuotes() throws(NATSError) {
        guard quotesWatch == nil, !isClosed else { return }
        let watch = try keyValue.watch(BusKeys.quotes(broker: broker), idleHeartbeat: Self.watchHeartbeat)
        let reader = Task { while let batch = await watch.nextBatch() { for event in batch { self.quoteWatch(event) } } }
        quotesWatch = (watch, reader)
    }

    private func stopWatchingQuotes() {
        guard let quotesWatch else { return }
        self.quotesWatch = nil
        quotesWatch.watch.stop()
        quotesWatch.reader.cancel()
    }

    // MARK: Writing to the bus

    private func publish(_ quote: CommonQuote) {
        let subject: String
        if let known = quoteSubjects[quote.symbol] {
            subject = known
        } else {
            subject = "$KV.\(keyValue.bucket)." + BusKeys.quote(broker: broker, symbol: quote.symbol)
            quoteSubjects[quote.symbol] = subject
        }
        fromBus[quote.symbol] = quote
        do {
            try keyValue.connection.publish(subject, payload: BusQuoteWire.encode(quote))
            if !unwritten.isEmpty { unwritten[quote.symbol] = nil }
        } catch .outboundBufferFull {
            // Only the latest quote of a symbol matters (the bucket keeps one value per key): keep it,
            // and write it when the buffer has room again.
            if unwritten.isEmpty { trace("the bus's outbound buffer is full: quotes are written again, latest only, as it drains") }
            unwritten[quote.symbol] = quote
            rewriteWhenThereIsRoom()
        } catch {
            // Closed: this session is ending; a new leader writes the prices again.
        }
    }

    /// Tries the unwritten records and symbols again every few milliseconds until all are written (the
    /// quotes: or the lease is lost) or the session closes.
    private func rewriteWhenThereIsRoom() {
        guard rewriting == nil else { return }
        rewriting = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.rewritePause)
                guard self.rewriteUnwritten() else { break }
            }
        }
    }

    private static let rewritePause = Duration.milliseconds(20)

    /// Writes each unwritten record, then each unwritten symbol's latest quote (quotes only while this
    /// process leads); true while some are still refused.
    private func rewriteUnwritten() -> Bool {
        guard !isClosed else {
            unwritten = [:]
            unwrittenRecords = [:]
            rewriting = nil
            return false
        }
        if upstream == nil { unwritten = [:] }
        for subject in unwrittenRecords.keys.sorted() {
            guard let payload = unwrittenRecords[subject] else { continue }
            writeRecord(payload, to: subject)
            if unwrittenRecords[subject] != nil { break }
        }
        if unwrittenRecords.isEmpty {
            for symbol in unwritten.keys.sorted() {
                guard let quote = unwritten[symbol] else { continue }
                publish(quote)
                if unwritten[symbol] != nil { break }
            }
        }
        let refused = !unwritten.isEmpty || !unwrittenRecords.isEmpty
        if !refused { rewriting = nil }
        return refused
    }

    private func publishState(_ condition: BusBrokerState.Condition, reason: String = "") {
        let state = BusBrokerState(condition: condition, reason: reason, leader: settings.holder)
        writeRecord(BusRecords.encode(state), to: stateSubject)
    }

    private func writeDemand() {
        demandWritten = (demand, now)
        writeRecord(BusRecords.encode(BusDemand(symbols: demand)), to: demandSubject)
    }

    /// A state or demand record: the bucket keeps one value per subject, so a refused one is kept, in
    /// place of any older one still waiting, and written once there is room.
    private func writeRecord(_ payload: [UInt8], to subject: String) {
        do {
            try keyValue.connection.publish(subject, payload: payload)
            unwrittenRecords[subject] = nil
        } catch .outboundBufferFull {
            if unwrittenRecords[subject] == nil { trace("the bus's outbound buffer is full: the \(subject == stateSubject ? "state" : "demand") is written again as it drains") }
            unwrittenRecords[subject] = payload
            rewriteWhenThereIsRoom()
        } catch {
            // Closed: this session is ending.
        }
    }

    // MARK: Telling the hub and the footer

    private func trace(_ line: String) {
        settings.trace?("\(broker): \(line)")
    }

    private static func seconds(_ duration: Duration) -> Int64 {
        duration.components.seconds
    }

    private func announce() {
        guard !isClosed else { return }
        if upstream != nil || machine.role == .leader {
            routes.set(.leader, for: broker)
            announced = nil
            return
        }
        let status: FollowerStatus?
        if !busUp {
            routes.set(.busLost(reason: "the bus is unreachable"), for: broker)
            status = .busLost
        } else {
            routes.set(.follower(leader: machine.leader), for: broker)
            if !controlCaughtUp {
                status = nil
            } else if machine.leader == nil {
                status = .noLeader
            } else if machine.leaderSilent(at: now) {
                status = .leaderNotLive("no word from \(machine.leader ?? "it") for \(Self.seconds(settings.lease.renewEvery * 2)) s")
            } else if let leaderState, leaderState.condition == .live {
                status = .live
            } else {
                status = .leaderNotLive(leaderState?.reason ?? "connecting")
            }
        }
        guard let status, status != announced else { return }
        announced = status
        let wait = Date().addingTimeInterval(Double(settings.lease.timeToLive.components.seconds))
        switch status {
        case .live:
            output.yield(.live)
        case .busLost:
            output.yield(.retrying(at: wait, after: .network("the bus is unreachable: prices from it are not live")))
        case .noLeader:
            output.yield(.retrying(at: wait, after: .network("no process on the bus is connected to \(broker)")))
        case .leaderNotLive(let reason):
            output.yield(.retrying(at: wait, after: .network("the leader's connection to \(broker) is not live: \(reason)")))
        }
    }
}
