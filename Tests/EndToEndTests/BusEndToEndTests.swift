import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing

/// Issue 16: one broker connection shared by every terminal over NATS JetStream KV. The real binary in
/// several tmux sessions, a real nats-server (NATSServerProcess) and the brokers' stream fixtures, which
/// allow one authenticated connection per key as Polygon and Alpaca do, so a second connection would
/// show as `AUTH limit`. Leases last 2 s (`leaseSeconds`, the least the config accepts) to keep takeovers
/// short; every wait is bounded by a deadline and ends as soon as the screens or fixture lines say so.
@Suite(.serialized) final class BusEndToEndTests {
    static let names = ["polygon": "Polygon", "alpaca": "Alpaca"]
    static let leaseSeconds = 2
    /// A takeover needs the lease to expire (TTL) and a renewal period to notice it; the rest is room
    /// for a loaded two-core machine.
    static let takeoverBound = Duration.seconds(leaseSeconds * 5)

    let work: URL

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("cb-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    /// Fixture logs, configs and the bus's store; a failing expectation has already quoted what matters.
    deinit { try? FileManager.default.removeItem(at: work) }

    // MARK: Config

    /// A config with the given brokers' stream fixtures and a bus section. `credentials: false` leaves
    /// out the broker keys: such a process can only follow.
    func config(_ name: String, fixtures: [StreamFixtureProcess], bus: String, role: String? = nil, credentials: Bool = true) throws -> String {
        let sections = fixtures.map { fixture -> String in
            var fields = [#""enabled": true"#, #""stream": true"#, #""baseURL": "http://127.0.0.1:\#(fixture.port)""#]
            if credentials {
                fields.append(fixture.broker == "alpaca" ? #""keyId": "test-key-id", "secretKey": "test-secret""# : #""apiKey": "test-key""#)
            }
            return "\"\(fixture.broker)\": {\(fields.joined(separator: ", "))}"
        }
        let roleField = role.map { #", "role": "\#($0)""# } ?? ""
        let text = #"{"symbols": ["AAPL", "MSFT"], "brokers": {\#(sections.joined(separator: ", "))}, "bus": {"url": "\#(bus)", "bucket": "e2e", "leaseSeconds": \#(Self.leaseSeconds)\#(roleField)}}"#
        let path = work.appendingPathComponent("\(name).json").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        return path
    }

    // MARK: Reading a screen

    /// A broker's entry in the footer, after its name: "● live · leader", "● live · via bus (leader:
    /// vm:123)", "retrying: … · bus lost, not live". Entries and the hints are three spaces apart.
    static func status(_ broker: String, in screen: String) -> String? {
        guard let footer = screen.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
              let name = footer.range(of: " \(names[broker]!) ")
        else { return nil }
        let rest = footer[name.upperBound...]
        return String(rest.range(of: "   ").map { rest[..<$0.lowerBound] } ?? rest)
    }

    static func isLeader(_ broker: String, in screen: String) -> Bool { status(broker, in: screen) == "● live · leader" }

    static func isLiveFollower(_ broker: String, in screen: String) -> Bool {
        status(broker, in: screen)?.hasPrefix("● live · via bus (leader: ") == true
    }

    /// The last price of a symbol's row for a broker: "AAPL     P Polygon    386.07  …".
    static func lastPrice(_ symbol: String, _ broker: String, in screen: String) -> Decimal? {
        guard let row = screen.split(separator: "\n").first(where: { $0.dropFirst().hasPrefix(symbol + " ") && $0.contains(names[broker]!) }) else { return nil }
        let words = row.split(separator: " ")
        guard let name = words.firstIndex(of: Substring(names[broker]!)), name + 1 < words.count else { return nil }
        return Decimal(string: String(words[name + 1]))
    }

    /// The stream fixture's price of a symbol starts at (100 + the sum of its bytes % 400) dollars and
    /// rises a cent a tick; the REST fixtures quote other prices (AAPL 227.52), so a price in this
    /// dollar (or the next) came from the stream.
    static func isStreamPrice(_ price: Decimal?, of symbol: String) -> Bool {
        guard let price else { return false }
        let dollars = Decimal(100 + symbol.utf8.reduce(0) { $0 + Int($1) } % 400)
        return price >= dollars && price < dollars + 2
    }

    /// Screens of all `terminals` captured one after another until `condition` holds for them together
    /// (bounded by `timeout`, scaled by `TestTime`).
    static func waitForScreens(_ terminals: [BusTerminal], timeout: Duration = .seconds(15), _ condition: ([String]) -> Bool) async throws -> [String]? {
        let deadline = ContinuousClock.now + TestTime.scaled(timeout)
        repeat {
            var screens: [String] = []
            for terminal in terminals { screens.append(try await terminal.capture()) }
            if condition(screens) { return screens }
            try await Task.sleep(for: .milliseconds(50))
        } while ContinuousClock.now < deadline
        return nil
    }

    /// Waits until every terminal's AAPL price for `broker` differs from the one it showed first: quotes flow.
    static func waitForPricesToMove(_ terminals: [BusTerminal], _ broker: String) async throws -> Bool {
        var first: [Decimal?] = []
        for terminal in terminals { first.append(lastPrice("AAPL", broker, in: try await terminal.capture())) }
        return try await waitForScreens(terminals) { screens in
            zip(screens, first).allSatisfy { screen, before in
                let now = lastPrice("AAPL", broker, in: screen)
                return before != nil && now != nil && now != before && isStreamPrice(now, of: "AAPL")
            }
        } != nil
    }

    /// The screens the terminals showed last, for a failure message.
    static func screens(_ terminals: [BusTerminal]) -> String {
        terminals.map { "\($0.name):\n\($0.lastScreen)" }.joined(separator: "\n")
    }

    static func traces(_ terminals: [BusTerminal]) -> String {
        terminals.map { $0.traceDecisions() }.joined(separator: "\n")
    }

    static func quit(_ terminals: [BusTerminal]) async throws {
        for terminal in terminals {
            try await terminal.session.send("q")
            #expect(try await terminal.session.waitForPrompt(), "\(terminal.name) did not quit:\n\(terminal.session.lastScreen)")
        }
    }

    // MARK: Tests

    @Test func threeTerminalsShareOneConnectionPerBrokerAndAnotherTakesOverWhenTheLeaderIsKilled() async throws {
        let nats = try await NATSServerProcess.start(in: work.appendingPathComponent("nats"))
        let polygon = try await StreamFixtureProcess("polygon", interval: "1.0", logs: work)
        let alpaca = try await StreamFixtureProcess("alpaca", interval: "1.0", logs: work)
        let fixtures = [polygon, alpaca]
        let path = try config("terminal", fixtures: fixtures, bus: nats.url)
        var terminals: [BusTerminal] = []
        for name in ["first", "second", "third"] { terminals.append(try await BusTerminal(name: name, config: path)) }

        // Every terminal live on both brokers; one leader per broker, the others following it.
        let shared = try await Self.waitForScreens(terminals) { screens in
            fixtures.allSatisfy { fixture in
                screens.count { Self.isLeader(fixture.broker, in: $0) } == 1
                    && screens.count { Self.isLiveFollower(fixture.broker, in: $0) } == 2
            }
        }
        #expect(shared != nil, "expected one leader and two live followers per broker:\n\(Self.screens(terminals))\n\(Self.traces(terminals))")

        // All three show the same stream price (captured within one tick; the fixture ticks once a second).
        let agreed = try await Self.waitForScreens(terminals) { screens in
            fixtures.allSatisfy { fixture in
                let prices = screens.map { Self.lastPrice("AAPL", fixture.broker, in: $0) }
                return Self.isStreamPrice(prices[0], of: "AAPL") && prices.allSatisfy { $0 == prices[0] }
            }
        }
        #expect(agreed != nil, "the three terminals did not agree on AAPL's price:\n\(Self.screens(terminals))")
        for fixture in fixtures {
            #expect(fixture.count("CONNECTED") == 1 && fixture.count("AUTH ok") == 1 && fixture.count("AUTH limit") == 0, "\(fixture.transcript)")
        }

        // A Polygon follower adds NVDA: the leader's one connection subscribes it, once.
        let follower = try #require(terminals.first { Self.isLiveFollower("polygon", in: $0.lastScreen) })
        try await follower.session.send("a")
        #expect(try await follower.session.waitFor("Add symbols") != nil, "the add prompt did not open:\n\(follower.session.lastScreen)")
        try await follower.session.send("NVDA", literal: true)
        try await follower.session.send("Enter")
        let nvda = try await follower.session.waitForScreen { screen in fixtures.allSatisfy { Self.isStreamPrice(Self.lastPrice("NVDA", $0.broker, in: screen), of: "NVDA") } }
        #expect(nvda != nil, "NVDA got no stream price in \(follower.name):\n\(follower.session.lastScreen)")
        // (The symbol sets also hold Alpaca's fixture positions, which the app follows too.)
        let subscribesNVDA: @Sendable (String) -> Bool = { $0.hasPrefix("SUBSCRIBED ") && $0.split(separator: " ").contains("NVDA") }
        #expect(try await polygon.waitFor { $0.contains(where: subscribesNVDA) }, "\(polygon.transcript)")
        #expect(polygon.lines.count(where: subscribesNVDA) == 1 && polygon.count("CONNECTED") == 1, "\(polygon.transcript)")
        #expect(alpaca.lines.contains(where: subscribesNVDA) && alpaca.count("CONNECTED") == 1, "\(alpaca.transcript)")

        // kill -9 of Polygon's leader: its lease expires and a survivor takes it, on one new connection.
        let leader = try #require(terminals.first { Self.isLeader("polygon", in: $0.lastScreen) })
        let pid = try #require(try await leader.appPID(), "\(leader.name)'s app process was not found")
        #expect(Self.status("polygon", in: follower.lastScreen) == "● live · via bus (leader: \(ProcessInfo.processInfo.hostName):\(pid))")
        #expect(kill(pid, SIGKILL) == 0)
        let survivors = terminals.filter { $0 !== leader }
        let takenOver = try await Self.waitForScreens(survivors, timeout: Self.takeoverBound) { screens in
            fixtures.allSatisfy { fixture in
                screens.count { Self.isLeader(fixture.broker, in: $0) } == 1 && screens.count { Self.isLiveFollower(fixture.broker, in: $0) } == 1
            }
        }
        #expect(takenOver != nil, "no survivor took over:\n\(Self.screens(survivors))\n\(Self.traces(survivors))")
        #expect(try await polygon.waitFor { lines in lines.count { $0 == "AUTH ok" } == 2 }, "\(polygon.transcript)")
        for fixture in fixtures {
            #expect(try await Self.waitForPricesToMove(survivors, fixture.broker), "\(fixture.broker) quotes did not resume:\n\(Self.screens(survivors))")
        }
        #expect(polygon.count("CONNECTED") == 2 && polygon.count("AUTH limit") == 0 && polygon.openConnections == 1, "\(polygon.transcript)\n\(Self.traces(survivors))")
        // Alpaca had a new connection only if the killed process led it too.
        #expect(alpaca.openConnections == 1 && alpaca.count("AUTH limit") == 0, "\(alpaca.transcript)")

        try await Self.quit(survivors)
        for fixture in fixtures { try await fixture.stop() }
        await nats.kill()
    }

    /// The bus goes away for 20 s (as the issue asks; ten leases) and comes back on the same port with its store: a
    /// follower says `bus lost` meanwhile, and afterwards every terminal is live again without a restart,
    /// on one connection to the broker.
    @Test func everyTerminalRecoversWhenTheBusComesBackAfterAnOutage() async throws {
        let nats = try await NATSServerProcess.start(in: work.appendingPathComponent("nats"))
        let polygon = try await StreamFixtureProcess("polygon", interval: "0.5", logs: work)
        let path = try config("terminal", fixtures: [polygon], bus: nats.url)
        let terminals = [try await BusTerminal(name: "first", config: path), try await BusTerminal(name: "second", config: path)]
        let shared = try await Self.waitForScreens(terminals) { screens in
            screens.count { Self.isLeader("polygon", in: $0) } == 1 && screens.count { Self.isLiveFollower("polygon", in: $0) } == 1
        }
        #expect(shared != nil, "expected a leader and a live follower:\n\(Self.screens(terminals))\n\(Self.traces(terminals))")
        let follower = try #require(terminals.first { Self.isLiveFollower("polygon", in: $0.lastScreen) })

        await nats.kill()
        let outageEnds = ContinuousClock.now + .seconds(20)
        let lost = try await follower.session.waitForScreen { Self.status("polygon", in: $0)?.hasSuffix("bus lost, not live") == true }
        #expect(lost != nil, "the follower did not say the bus was lost:\n\(follower.session.lastScreen)")
        // The outage itself (not an assertion): far longer than a lease, so every lease has expired by then.
        try await Task.sleep(until: outageEnds)
        let restarted = try await nats.restart()

        let recovered = try await Self.waitForScreens(terminals, timeout: .seconds(20)) { screens in
            screens.count { Self.isLeader("polygon", in: $0) } == 1 && screens.count { Self.isLiveFollower("polygon", in: $0) } == 1
        }
        #expect(recovered != nil, "the terminals did not recover:\n\(Self.screens(terminals))\n\(Self.traces(terminals))")
        #expect(try await Self.waitForPricesToMove(terminals, "polygon"), "quotes did not resume:\n\(Self.screens(terminals))")
        #expect(try await polygon.waitFor { _ in polygon.openConnections == 1 }, "\(polygon.transcript)\n\(Self.traces(terminals))")

        try await Self.quit(terminals)
        try await polygon.stop()
        await restarted.kill()
    }

    /// `commonbroker relay` holds the broker's key and connection; two terminals configured as followers
    /// with no key of their own show its prices. SIGTERM ends the relay at once with status 0, and the
    /// terminals stop saying live.
    @Test func aRelayServesFollowersWithoutCredentialsAndStopsOnSIGTERM() async throws {
        let nats = try await NATSServerProcess.start(in: work.appendingPathComponent("nats"))
        let polygon = try await StreamFixtureProcess("polygon", interval: "0.5", logs: work)
        let relayConfig = try config("relay", fixtures: [polygon], bus: nats.url)
        let relay = try LoggedProcess(CommonBrokerBinary.path, ["relay", "--config", relayConfig], logs: work, name: "relay")
        let followerConfig = try config("follower", fixtures: [polygon], bus: nats.url, role: "follower", credentials: false)
        let terminals = [try await BusTerminal(name: "first", config: followerConfig), try await BusTerminal(name: "second", config: followerConfig)]

        let relayed = "● live · via bus (leader: \(ProcessInfo.processInfo.hostName):\(relay.pid))"
        let served = try await Self.waitForScreens(terminals) { screens in
            screens.allSatisfy { Self.status("polygon", in: $0) == relayed && Self.isStreamPrice(Self.lastPrice("AAPL", "polygon", in: $0), of: "AAPL") }
        }
        #expect(served != nil, "expected both terminals to follow the relay:\n\(Self.screens(terminals))\n\(relay.errorLines().joined(separator: "\n"))")
        #expect(try await Self.waitForPricesToMove(terminals, "polygon"), "the relay's quotes did not flow:\n\(Self.screens(terminals))")
        #expect(polygon.count("AUTH ok") == 1 && polygon.openConnections == 1, "\(polygon.transcript)")
        let log = relay.errorLines()
        #expect(log.contains { $0.contains("commonbroker relay: relaying Polygon over \(nats.url), bucket e2e") }, "\(log)")
        #expect(log.contains { $0.hasSuffix("commonbroker relay: Polygon: live") }, "\(log)")

        relay.signal(SIGTERM)
        #expect(try await relay.waitForExit(timeout: .seconds(5)) == 0, "the relay did not exit with 0 on SIGTERM:\n\(relay.errorLines().suffix(10).joined(separator: "\n"))")
        #expect(relay.errorLines().contains { $0.hasSuffix("commonbroker relay: stopping: letting go of the leases") })
        #expect(try await polygon.waitFor { _ in polygon.openConnections == 0 }, "\(polygon.transcript)")
        let notLive = try await Self.waitForScreens(terminals) { screens in
            screens.allSatisfy { screen in Self.status("polygon", in: screen).map { !$0.hasPrefix("● live") } == true }
        }
        #expect(notLive != nil, "the terminals still say live without the relay:\n\(Self.screens(terminals))")
        // The relay lets go of its lease as it stops, so the footers should name no leader.
        let noLeader = try await Self.waitForScreens(terminals, timeout: .seconds(Self.leaseSeconds * 2)) { screens in
            screens.allSatisfy { Self.status("polygon", in: $0)?.hasSuffix("via bus (no leader)") == true }
        }
        #expect(noLeader != nil, "the footers still name a leader after the relay stopped:\n\(Self.screens(terminals))\n\(Self.traces(terminals))")

        try await Self.quit(terminals)
        try await polygon.stop()
        await nats.kill()
    }

    /// A bus nobody answers at start: the app connects to its brokers itself, as it does without a bus.
    @Test func anUnreachableBusAtStartLeavesTheAppDirect() async throws {
        let closed = try ClosedPort()
        let polygon = try await StreamFixtureProcess("polygon", interval: "0.5", logs: work)
        let path = try config("terminal", fixtures: [polygon], bus: "nats://127.0.0.1:\(closed.port)")
        let terminal = try await BusTerminal(name: "alone", config: path)

        let direct = try await terminal.session.waitForScreen { screen in
            Self.status("polygon", in: screen) == "● live · direct, bus unreachable"
                && Self.isStreamPrice(Self.lastPrice("AAPL", "polygon", in: screen), of: "AAPL")
        }
        #expect(direct != nil, "expected a direct live connection:\n\(terminal.session.lastScreen)\n\(terminal.traceDecisions())")
        #expect(try await Self.waitForPricesToMove([terminal], "polygon"), "quotes did not flow:\n\(terminal.lastScreen)")
        #expect(polygon.count("AUTH ok") == 1 && polygon.openConnections == 1, "\(polygon.transcript)")

        try await Self.quit([terminal])
        try await polygon.stop()
    }
}

/// A TCP port bound on 127.0.0.1 but not listening, so connecting to it is refused, and no other
/// process can take it while this value lives.
private final class ClosedPort {
    let port: Int
    private let socketDescriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = descriptor >= 0 && withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw Subprocess.Failure(description: "cannot bind a port on 127.0.0.1: \(reason)")
        }
        socketDescriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socketDescriptor) }
}
