import Bus
import Domain
import Foundation
import Locking
import Networking
import TestSupport

/// What the live bus tests share: a real nats-server with JetStream in a temporary directory, bus
/// settings with short leases (the product's own timing, scaled down: 900 ms to live, renewed every
/// 300 ms), and a reader that keeps every event a session reports.
///
/// The lease timing is stretched by `TestTime` with the waits: under ThreadSanitizer on a busy machine
/// a process can stall for longer than the 600 ms between a missed renewal and the lease's expiry, and
/// a leader that loses its lease that way is not what these tests are about. The proportions stay.
enum BusLiveRig {
    static let policy = LeasePolicy(
        timeToLive: TestTime.scaled(.milliseconds(900)), renewEvery: TestTime.scaled(.milliseconds(300)),
        standDownAfterFailure: TestTime.scaled(.seconds(2)))

    static func with<T>(_ body: (NATSServerProcess) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cb-bus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await NATSServerProcess.start(in: directory)
        do {
            let result = try await body(server)
            await server.kill()
            return result
        } catch {
            await server.kill()
            throw error
        }
    }

    static func settings(_ servers: [String], instance: String, role: BusRole = .auto) -> BusSettings {
        var settings = BusSettings(
            servers: servers, bucket: "bustest", role: role, lease: policy, demandHeartbeat: TestTime.scaled(.milliseconds(300)),
            connectTimeout: TestTime.scaled(.seconds(2)), holder: "host-\(instance):1", instance: instance)
        // COMMONBROKER_BUS_TRACE=1, as for the app: each session's decisions on stderr, timed, to read
        // a failure's course.
        if ProcessInfo.processInfo.environment["COMMONBROKER_BUS_TRACE"] == "1" {
            let start = ContinuousClock.now
            settings.trace = { line in FileHandle.standardError.write(Data("[\(start.duration(to: .now))] \(instance): \(line)\n".utf8)) }
        }
        return settings
    }

    /// Two processes on one server, "a" and "b", each with a fake broker of its own, a bus link and the
    /// bus service over them; `roleB` is B's role. Each process's routes are kept for the test to read.
    struct TwoProcesses {
        let upstreamA = FakeUpstream(), upstreamB = FakeUpstream()
        let routesA = BusRouteBoard(), routesB = BusRouteBoard()
        let linkA: BusLink, linkB: BusLink
        let serviceA: BusQuoteService, serviceB: BusQuoteService

        init(_ server: NATSServerProcess, roleB: BusRole = .auto) {
            linkA = BusLink(settings: BusLiveRig.settings([server.url], instance: "a"))
            linkB = BusLink(settings: BusLiveRig.settings([server.url], instance: "b", role: roleB))
            serviceA = BusQuoteService(branding: upstreamA.branding, link: linkA, upstream: upstreamA.service, routes: routesA)
            serviceB = BusQuoteService(branding: upstreamB.branding, link: linkB, upstream: upstreamB.service, routes: routesB)
        }
    }

    /// Polls `condition` until it holds, or fails after `timeout` (scaled by `TestTime`) saying what was awaited.
    static func eventually(
        _ what: String, within timeout: Duration = .seconds(10), _ condition: () async -> Bool
    ) async throws {
        let timeout = TestTime.scaled(timeout)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Timeout(description: "waited \(timeout) for: \(what)")
    }

    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }
}

/// Every event of one session, kept for the test to look at.
final class EventLog: Sendable {
    private final class Store: Sendable {
        let events = Locked<[QuoteEvent]>([])
        let ended = Locked(false)
    }

    private let store = Store()
    private let reader: Task<Void, Never>

    init(_ session: any QuoteStreamSession) {
        let store = store
        reader = Task {
            do {
                for try await event in session.events { store.events.withLock { $0.append(event) } }
            } catch {}
            store.ended.withLock { $0 = true }
        }
    }

    deinit {
        reader.cancel()
    }

    var all: [QuoteEvent] { store.events.withLock { $0 } }

    var quotes: [CommonQuote] {
        all.compactMap { if case .quote(let quote) = $0 { quote } else { nil } }
    }

    func lastQuote(_ symbol: String) -> CommonQuote? {
        quotes.last { $0.symbol == symbol }
    }

    var hasEnded: Bool { store.ended.withLock { $0 } }

    var lastStatus: QuoteEvent? {
        all.last { if case .quote = $0 { false } else { true } }
    }
}
