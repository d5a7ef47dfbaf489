import Bus
import Dispatch
import Domain
import Foundation
import MarketDataHub
import TextSafety

/// `commonbroker relay`: a leader with no screen. For each broker it has credentials for, it keeps a bus
/// session open (reopened with backoff when it ends), which takes the broker's lease (a relay is pinned,
/// so it takes it from a terminal at once), connects to the broker, subscribes it to what every terminal
/// shows and writes the quotes to the bus. It shows nothing itself. Every change of state is one line
/// on standard error; SIGTERM or SIGINT closes the sessions, which lets go of the leases at once.
enum RelayCommand {
    static func run(_ app: AppComposition) async -> Int32 {
        guard let bus = app.bus else {
            StandardError.write("commonbroker relay: the config has no \"bus\" section (or no real broker is enabled); add \"bus\": {\"url\": \"nats://127.0.0.1:4222\"} and the brokers whose connections to share")
            return 78
        }
        guard !app.relayed.isEmpty else {
            StandardError.write("commonbroker relay: no enabled broker has its credentials set here, so there is nothing to relay; set them (see README, Brokers) or run without relay")
            return 78
        }
        log("relaying \(app.relayed.map(\.branding.name).joined(separator: ", ")) over \(bus.settings.serversForHumans), bucket \(bus.settings.bucket), as \(bus.settings.holder)")
        let stop = SignalStop()
        let status = await withTaskGroup(of: Void.self) { group -> Int32 in
            for service in app.relayed {
                group.addTask { await keepOpen(service) }
            }
            group.addTask {
                for await (broker, route) in app.routes.changes() {
                    log("\(broker): \(describe(route))")
                }
            }
            await stop.wait()
            log("stopping: letting go of the leases")
            group.cancelAll()
            await group.waitForAll()
            return 0
        }
        await bus.close()
        return status
    }

    /// One broker's session, opened again after it ends: 1 s after a session, and after failed opens 1 s
    /// doubling to 30 s (the hub's `BackoffPolicy`, without jitter).
    private static func keepOpen(_ service: AnyStreamingQuoteService) async {
        let backoff = BackoffPolicy(initial: .seconds(1), maximum: .seconds(30), jitter: 0)
        var failures = 0
        let name = service.branding.name
        while !Task.isCancelled {
            do {
                let session = try await service.openSession()
                let reader = Task {
                    do {
                        for try await event in session.events {
                            switch event {
                            case .live: log("\(name): live")
                            case .retrying(_, let error): log("\(name): waiting: \(error.description)")
                            case .symbolFailed(let symbol, let error): log("\(name): \(VisibleText.escaped(symbol)): \(error.description)")
                            case .skippedFrame(let reason): log("\(name): skipped a frame: \(reason)")
                            case .quote: break
                            }
                        }
                        log("\(name): the session ended")
                    } catch {
                        log("\(name): the session failed: \(error)")
                    }
                }
                await withTaskCancellationHandler {
                    await reader.value
                } onCancel: {
                    reader.cancel()
                }
                await session.close()
                failures = 0
            } catch {
                failures += 1
                log("\(name): \(error.description)")
            }
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: backoff.delay(attempt: max(1, failures)))
        }
    }

    static func describe(_ route: QuoteRoute) -> String {
        switch route {
        case .direct: "direct"
        case .leader: "leader: connected for the bus"
        case .follower(let leader?): "following \(VisibleText.escaped(leader)), which holds the lease"
        case .follower(nil): "waiting for the lease"
        case .directWithoutBus(let reason): "the bus is unreachable (\(reason))"
        case .busLost(let reason): "the bus is lost (\(reason))"
        }
    }

    private static func log(_ line: String) {
        let stamp = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false).timeSeparator(.colon))
        StandardError.write("\(stamp) commonbroker relay: \(line)")
    }
}
