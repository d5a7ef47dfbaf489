import Bus
import Domain
import Foundation
import Locking
import Networking

/// The bus of issue 16, leader to follower through a real `nats-server` with JetStream, both in this
/// process, each with its own `BusLink` (two NATS connections), as two terminals on one machine would be:
///
/// - The leader: a `BusQuoteService` over `BusBenchUpstream`, whose session a producer thread feeds with
///   `BenchQuote`s (sequence number, hand-in time and symbol index inside an ordinary quote). It writes
///   each to the bucket (`quote.<broker>.<symbol>`).
/// - The follower: a `BusQuoteService` with no upstream, its session subscribed to every symbol and read
///   by `BusFollowerProbe`, as its hub would read it.
///
/// Measured from the leader session's input to the follower session's output; the hub mailboxes on
/// either side are the hub rows' business.
///
/// - Throughput: `quotes` quotes round-robin over `symbols` symbols, handed in as fast as the leader
///   takes them, timed from the first hand-in until the follower's session has yielded the last quote of
///   every symbol. Target ≥ 50k quotes/s. How many quotes the server stored and the follower received
///   are reported: the bucket keeps one value per key (history 1), so a watch that lags behind the
///   writer finds a superseded quote already gone from the stream and gets the key's newer one, with no
///   gap in its consumer's numbering. The bus conflates under load, as the hub does; what must hold is
///   that the follower ends on every symbol's last quote.
/// - Latency: `rates` quotes/s for `latencyWindow` each, on a deadline schedule; each quote's time from
///   hand-in to the follower's output. Target p99 ≤ 5 ms at 10k/s.
///
/// Before any timing the follower's demand has reached the leader's upstream, the follower has heard
/// the leader is live, and one quote of every symbol has crossed (the keys exist, the watch is warm).
struct BusBenchmark: Sendable {
    var runs = 3
    var quotes = 200_000
    var symbols = 500
    var rates: [Double] = [1_000, 10_000]
    var latencyWindow: Duration = .seconds(5)
    var log: @Sendable (String) -> Void = { _ in }

    /// How long the rig may take to settle, and a phase's quotes to arrive after the last hand-in.
    var settleTimeout: Duration = .seconds(20)
    var arrivalTimeout: Duration = .seconds(30)

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func run() async -> Figures {
        var figures = Figures()
        guard let executable = BenchNATSServer.executable() else {
            figures.note("bus", "not measured: nats-server not installed (apt-get install nats-server)")
            return figures
        }
        log("bus: starting \(executable)")
        let started = await onDedicatedThread(named: "bench-nats-server") { () -> Result<BenchNATSServer, Failure> in
            do { return .success(try BenchNATSServer.start(executable)) } catch { return .failure(Failure(description: "\(error)")) }
        }
        let server: BenchNATSServer
        switch started {
        case .success(let running): server = running
        case .failure(let failure):
            figures.note("bus", "not measured: \(failure)")
            return figures
        }
        do {
            try await measure(server, into: &figures)
        } catch {
            figures.note("bus", "not measured: \(error)")
        }
        await onDedicatedThread(named: "bench-nats-server") { server.stop() }
        return figures
    }

    // MARK: The rig

    private func measure(_ server: BenchNATSServer, into figures: inout Figures) async throws {
        let names = (0..<symbols).map(BenchQuote.symbol)
        let upstream = BusBenchUpstream()
        let leaderLink = BusLink(settings: settings(server.url, name: "leader", role: .leader), retryAfter: .zero)
        let followerLink = BusLink(settings: settings(server.url, name: "follower", role: .follower), retryAfter: .zero)
        do {
            try await connect(leaderLink)
            try await connect(followerLink)
        } catch {
            await leaderLink.close()
            await followerLink.close()
            throw error
        }
        let leaderService = BusQuoteService(branding: upstream.branding, link: leaderLink, upstream: upstream.service, routes: BusRouteBoard())
        let followerService = BusQuoteService(branding: upstream.branding, link: followerLink, upstream: nil, routes: BusRouteBoard())
        var sessions: [any QuoteStreamSession] = []
        do {
            let leader = try await leaderService.openSession()
            sessions.append(leader)
            let follower = try await followerService.openSession()
            sessions.append(follower)
            let stream: NATSKeyValue
            switch await leaderLink.keyValue() {
            case .success(let keyValue): stream = keyValue
            case .failure(let unavailable): throw Failure(description: "\(unavailable)")
            }
            try await measure(follower: follower, upstream: upstream, server: server, stream: stream, names: names, into: &figures)
        } catch {
            for session in sessions.reversed() { await session.close() }
            await leaderLink.close()
            await followerLink.close()
            throw error
        }
        for session in sessions.reversed() { await session.close() }
        await leaderLink.close()
        await followerLink.close()
    }

    private func measure(
        follower: any QuoteStreamSession, upstream: BusBenchUpstream, server: BenchNATSServer, stream: NATSKeyValue,
        names: [String], into figures: inout Figures
    ) async throws {
        let probe = BusFollowerProbe(follower)
        await follower.subscribe(Set(names))

        try await awaitCondition("the follower's demand for \(symbols) symbols to reach the leader's upstream, and the leader to be live",
                                 within: settleTimeout) {
            upstream.subscribed.count == symbols && probe.isLive
        }
        guard let feed = upstream.session else { throw Failure(description: "the leader holds no upstream session") }

        var next: Int64 = 0
        // One quote of every symbol: each key exists and the watch has delivered before anything is timed.
        log("bus: warming up with one quote of each of \(symbols) symbols")
        _ = try await phase(&next, count: symbols, pace: nil, names: names, feed: feed, probe: probe)
        guard probe.isCurrent else { throw Failure(description: "the warm-up quotes did not all reach the follower") }

        for run in 1...runs {
            log("bus throughput, run \(run): \(quotes) quotes over \(symbols) symbols")
            let storedBefore = await Self.lastSequence(of: stream)
            let serverCPU = server.cpuNanoseconds()
            let cpu = MonotonicTime.processCPU()
            let throughput = try await phase(&next, count: quotes, pace: nil, names: names, feed: feed, probe: probe)
            let cpuUsed = MonotonicTime.processCPU() - cpu
            let serverCPUUsed = serverCPU.flatMap { before in server.cpuNanoseconds().map { $0 - before } }
            let seen = probe.phase
            let storedAfter = await Self.lastSequence(of: stream)
            if let storedBefore, let storedAfter {
                figures.add("bus.throughput.storedByServer", Double(storedAfter - storedBefore))
            }
            figures.add("bus.throughput.quotes", Double(quotes))
            figures.add("bus.throughput.received", Double(seen.received))
            figures.add("bus.throughput.supersededQuotes", Double(quotes - seen.received))
            figures.add("bus.throughput.followerCurrent", seen.isCurrent)
            if seen.isCurrent {
                figures.add("bus.throughput.quotesPerSecond", Double(quotes) / MonotonicTime.seconds(seen.currentAt - throughput.started))
            }
            figures.add("bus.throughput.handInQuotesPerSecond", Double(quotes) / MonotonicTime.seconds(throughput.stopped - throughput.started))
            figures.add("bus.throughput.cpuNanosecondsPerQuote", Double(cpuUsed) / Double(quotes))
            figures.add("bus.throughput.serverCPUNanosecondsPerQuote", serverCPUUsed.map { Double($0) / Double(quotes) })

            for rate in rates {
                let count = Int(rate * latencyWindow.secondsValue)
                log("bus latency at \(Format.rate(rate))/s, run \(run): \(count) quotes")
                let cpuBefore = MonotonicTime.processCPU()
                let serverBefore = server.cpuNanoseconds()
                _ = try await phase(&next, count: count, pace: rate, names: names, feed: feed, probe: probe)
                let cpuAfter = MonotonicTime.processCPU()
                let serverAfter = server.cpuNanoseconds()
                let seen = probe.phase
                let base = "bus.latency.\(Int(rate))"
                figures.add("\(base).p50Microseconds", seen.latencies.percentile(0.5).map { Double($0) / 1_000 })
                figures.add("\(base).p90Microseconds", seen.latencies.percentile(0.9).map { Double($0) / 1_000 })
                figures.add("\(base).p99Microseconds", seen.latencies.percentile(0.99).map { Double($0) / 1_000 })
                figures.add("\(base).p999Microseconds", seen.latencies.percentile(0.999).map { Double($0) / 1_000 })
                figures.add("\(base).maxMicroseconds", seen.latencies.count > 0 ? Double(seen.latencies.maximum) / 1_000 : nil)
                figures.add("\(base).deliveredPercent", 100 * Double(seen.received) / Double(count))
                figures.add("\(base).cpuNanosecondsPerQuote", Double(cpuAfter - cpuBefore) / Double(count))
                if let serverBefore, let serverAfter {
                    figures.add("\(base).serverCPUNanosecondsPerQuote", Double(serverAfter - serverBefore) / Double(count))
                }
            }
        }
        figures.add("bus.symbols", Double(symbols))
        figures.note("bus", "leader and follower in this process, each with its own NATS connection to a local nats-server (JetStream, file store)")
    }

    /// The bucket stream's last sequence number: how many writes the server has stored, the quotes with
    /// the few lease, state and demand writes of the same time. Tells a quote the leader never got to the
    /// server from one the follower never got from it.
    private static func lastSequence(of keyValue: NATSKeyValue) async -> UInt64? {
        guard let reply = try? await keyValue.connection.request("$JS.API.STREAM.INFO.\(keyValue.streamName)"),
              let object = try? JSONSerialization.jsonObject(with: Data(reply.payload)) as? [String: Any],
              let state = object["state"] as? [String: Any],
              let last = state["last_seq"] as? NSNumber
        else { return nil }
        return last.uint64Value
    }

    private func settings(_ url: String, name: String, role: BusRole) -> BusSettings {
        BusSettings(servers: [url], bucket: "busbench", role: role, holder: "bench-\(name):\(getpid())")
    }

    /// The link's first connection, with the bucket; JetStream may still be starting when the port
    /// first accepts, so a refusal is tried again for a while.
    private func connect(_ link: BusLink) async throws {
        let deadline = ContinuousClock.now + settleTimeout
        while true {
            switch await link.keyValue() {
            case .success: return
            case .failure(let unavailable):
                guard ContinuousClock.now < deadline else { throw Failure(description: "\(unavailable)") }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    // MARK: A phase

    /// Hands in `count` quotes numbered from `next`, round-robin over `names`, flat out (`pace` nil) or
    /// at `pace` quotes/s, and waits until the last one has reached the follower or `arrivalTimeout` has
    /// passed since the last hand-in. The probe holds what arrived.
    private func phase(
        _ next: inout Int64, count: Int, pace: Double?, names: [String], feed: BenchQuoteSession, probe: BusFollowerProbe
    ) async throws -> (started: UInt64, stopped: UInt64) {
        let first = next
        next += Int64(count)
        var finals = [Int64](repeating: -1, count: names.count)
        for offset in max(0, count - names.count)..<count { finals[offset % names.count] = first + Int64(offset) }
        probe.begin(first: first, end: next, finals: finals)
        let handedIn = await onDedicatedThread(named: "bench-bus-producer") {
            Self.produce(first: first, count: count, pace: pace, names: names, into: feed)
        }
        guard let handedIn else { throw Failure(description: "the leader's upstream session ended under the producer") }
        // The last quote of each symbol arrived: everything before it has arrived or was lost (a
        // subject's messages come in order).
        try? await awaitCondition("the quotes to reach the follower", within: arrivalTimeout) { probe.isCurrent }
        return handedIn
    }

    /// On the producer's thread: `BenchQuote`s into the leader's upstream session, waiting while it is
    /// full (never skipping one); paced runs hand in the quote due at each tick of an absolute schedule,
    /// so a late wake-up is caught up rather than shifting every later quote. nil if the session ended.
    private static func produce(
        first: Int64, count: Int, pace: Double?, names: [String], into feed: BenchQuoteSession
    ) -> (started: UInt64, stopped: UInt64)? {
        let started = MonotonicTime.now()
        let period = pace.map { 1e9 / $0 }
        var symbolIndex = 0
        for offset in 0..<count {
            if let period { MonotonicTime.sleep(until: started + UInt64(Double(offset) * period)) }
            let quote = BenchQuote.make(
                sequence: first + Int64(offset), symbolIndex: symbolIndex, symbol: names[symbolIndex], sentAt: MonotonicTime.now())
            handIn: while true {
                switch feed.feed.yield(.quote(quote)) {
                case .enqueued: break handIn
                // Full: the leader is behind. A short nap, as a socket reader would block; spinning would
                // take one of the two cores from the leader.
                case .dropped: MonotonicTime.sleep(until: MonotonicTime.now() + 20_000)
                case .terminated: return nil
                }
            }
            symbolIndex = symbolIndex + 1 == names.count ? 0 : symbolIndex + 1
        }
        return (started, MonotonicTime.now())
    }

    private func awaitCondition(_ what: String, within timeout: Duration, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { throw Failure(description: "waited \(timeout) for \(what)") }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
