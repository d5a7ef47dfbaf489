import Domain
import Foundation
import Interactors
import Locking
import Stores
import Testing

/// The runtime carries out what an alert asks for: the bell and the notification through its closures,
/// the alert and its fired state through the watchlist file.
@Suite struct AlertsRuntimeTests {
    @Test func aFiringRingsNotifiesAndIsSavedInTheFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AlertsRuntime-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = WatchlistStore(file: WatchlistFile(directory: directory), seed: ["AAPL"])
        _ = try store.load()
        let feed = ManualFeed(brokers: [alpha])
        let published = Published()
        let bells = CallCounter()
        let notifications = Locked<[DesktopNotification]>([])
        let runtime = AppRuntime(
            live: LiveAppState(AppState(
                brokers: [alpha], book: store.book,
                settings: AppState.Settings(isDemo: true, staleAfter: 30, alertBell: true, alertDesktop: true))),
            feed: feed, watchlist: store, now: { t0 },
            bell: { bells.call() },
            notify: { notification in notifications.withLock { $0.append(notification) } },
            publish: published.publish)
        await runtime.start()
        feed.send(MarketUpdate(quotes: [QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 99)]))
        #expect(await published.first { $0.rows.first?.quote?.last == 99 } != nil)

        for key in "!>100" { await runtime.send(.key(.character(key))) }
        await runtime.send(.key(.enter))
        #expect(store.book.alerts.alerts.map(\.summary) == ["AAPL > 100 · any broker"])
        #expect(bells.value == 0)

        feed.send(MarketUpdate(quotes: [QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 101)]))
        let fired = await published.first { !$0.alertLog.isEmpty }
        #expect(fired?.alertedRows == [QuoteKey(brandID: "alpha", symbol: "AAPL")])
        #expect(bells.value == 1)
        #expect(notifications.withLock { $0 } == [DesktopNotification(title: "AAPL > 100", body: "AAPL 101 at Alpha · alert #1")])
        // In the file as fired, once stopped (the save runs off the runtime's thread, and stopping waits
        // for it): another instance, or the next start, does not fire it again.
        await runtime.stop()
        let reread = WatchlistStore(file: WatchlistFile(directory: directory), seed: [])
        _ = try reread.load()
        #expect(reread.book.alerts.alerts.first?.isArmed == false)
        #expect(reread.book.alerts.alerts.first?.lastFired?.price == 101)
    }
}
