import Domain
import Foundation
import Interactors
import Stores
import TerminalKit
import Testing

/// Alerts through the update loop: set with `!`, fired by `.market` batches, shown in `L`.
@Suite struct AlertsAppStateTests {
    private static func driver(bell: Bool = true, desktop: Bool = false, symbols: [String] = ["AAPL", "MSFT"]) -> AppStateDriver {
        var driver = AppStateDriver(brokers: [alpha, beta], symbols: symbols)
        driver.state = AppState(
            brokers: [alpha, beta], symbols: symbols,
            settings: AppState.Settings(isDemo: true, staleAfter: 30, alertBell: bell, alertDesktop: desktop),
            terminalSize: ScreenSize(columns: 100, rows: 30))
        driver.send(.started)
        return driver
    }

    private static func batch(_ broker: String, _ symbol: String, _ last: ExactDecimal, at time: Date = t0) -> AppEvent {
        .market(MarketUpdate(quotes: [QuoteKey(brandID: broker, symbol: symbol): quote(symbol, last, at: time)]))
    }

    /// `!` on the selected row, the text typed, Enter.
    private static func setAlert(_ driver: inout AppStateDriver, _ text: String) {
        driver.press(.character("!"))
        driver.type(text)
        driver.press(.enter)
    }

    @Test func bangOpensTheDialogOnTheSelectedRowWithItsPrices() {
        var driver = Self.driver()
        driver.send(Self.batch("alpha", "AAPL", 190))
        driver.press(.character("!"))
        guard case .alertDialog(let dialog) = driver.state.front else {
            Issue.record("no dialog: \(driver.state.front)")
            return
        }
        #expect(dialog.context.symbol == "AAPL")
        #expect(dialog.context.rowBroker == alpha)
        #expect(dialog.context.lastPrices == ["alpha": 190])
        driver.press(.escape)
        #expect(driver.state.front == .watchlist)
        #expect(driver.book.alerts.isEmpty)
    }

    @Test func settingAnAlertSavesItAndSaysSo() {
        var driver = Self.driver()
        Self.setAlert(&driver, ">190.5 rearm")
        #expect(driver.state.front == .watchlist)
        #expect(driver.book.alerts.alerts.map(\.summary) == ["AAPL > 190.5 · any broker · rearms"])
        #expect(driver.state.alerts == driver.book.alerts)
        #expect(driver.state.message?.text == "Alert #1 set: AAPL > 190.5 · any broker · rearms · L lists alerts")
    }

    @Test func invalidInputKeepsTheTextAndSaysWhy() {
        var driver = Self.driver()
        Self.setAlert(&driver, ">19O.5")
        guard case .alertDialog(let dialog) = driver.state.front else {
            Issue.record("the dialog closed")
            return
        }
        #expect(dialog.prompt.text == ">19O.5")
        #expect(dialog.prompt.error == "'>19O.5' needs a price above 0 after >, such as >190.5")
        #expect(driver.book.alerts.isEmpty)
        // Fixing it in place works.
        driver.press(.backspace, .backspace, .backspace, .backspace)
        driver.type("90.5")
        driver.press(.enter)
        #expect(driver.book.alerts.alerts.first?.condition == .above(ExactDecimal(parsing: "190.5")!))
    }

    @Test func aFiringRingsNotifiesLogsHighlightsAndSaves() {
        var driver = Self.driver(desktop: true)
        Self.setAlert(&driver, ">190.5")
        #expect(driver.send(Self.batch("alpha", "AAPL", 190)).isEmpty)
        #expect(driver.state.alertLog.isEmpty)

        driver.now = t0.addingTimeInterval(1)
        let effects = driver.send(Self.batch("beta", "AAPL", 191, at: driver.now))
        #expect(effects == [
            .bell,
            .notify(DesktopNotification(title: "AAPL > 190.5", body: "AAPL 191 at Beta · alert #1")),
        ])
        #expect(driver.state.alertLog.map { "\($0.symbol)@\($0.brokerID) \($0.price)" } == ["AAPL@beta 191"])
        #expect(driver.state.alertedRows == [QuoteKey(brandID: "beta", symbol: "AAPL")])
        #expect(driver.state.viewState().alertedRows == [QuoteKey(brandID: "beta", symbol: "AAPL")])
        #expect(driver.state.message?.kind == .warning)
        #expect(driver.state.message?.text == "Alert: AAPL > 190.5 at Beta: 191 · L shows the log")
        // Saved as fired, so a restart does not ring again.
        #expect(driver.book.alerts.alerts.first?.isArmed == false)
        #expect(driver.book.alerts.alerts.first?.lastFired?.brokerID == "beta")
        #expect(driver.effects.contains { if case .persistAlerts(.record) = $0 { true } else { false } })

        // Once: no second ring while it stays above, or after it crosses again.
        #expect(driver.send(Self.batch("alpha", "AAPL", 192, at: driver.now)).isEmpty)
        driver.send(Self.batch("beta", "AAPL", 180, at: driver.now))
        #expect(driver.send(Self.batch("beta", "AAPL", 195, at: driver.now)).isEmpty)
        #expect(driver.state.alertLog.count == 1)
    }

    @Test func bellOffAndDesktopOffAskForNeither() {
        var driver = Self.driver(bell: false, desktop: false)
        Self.setAlert(&driver, "<100")
        let effects = driver.send(Self.batch("alpha", "MSFT", 50))
        #expect(effects.isEmpty)
        // The alert is on AAPL: MSFT at 50 does not fire it.
        #expect(driver.state.alertLog.isEmpty)
        #expect(driver.send(Self.batch("alpha", "AAPL", 99)).isEmpty)
        #expect(driver.state.alertLog.count == 1)
        #expect(driver.state.alertedRows == [QuoteKey(brandID: "alpha", symbol: "AAPL")])
    }

    @Test func aRearmingAlertRingsAgainOnlyAfterClearing() {
        var driver = Self.driver()
        Self.setAlert(&driver, ">190 @ rearm")
        #expect(driver.send(Self.batch("alpha", "AAPL", 191)) == [.bell])
        #expect(driver.send(Self.batch("alpha", "AAPL", 192)).isEmpty)
        #expect(driver.send(Self.batch("beta", "AAPL", 195)).isEmpty)  // @: alpha only
        #expect(driver.send(Self.batch("alpha", "AAPL", 189)).isEmpty)
        #expect(driver.book.alerts.alerts.first?.isArmed == true)
        #expect(driver.send(Self.batch("alpha", "AAPL", 190)) == [.bell])
        #expect(driver.state.alertLog.count == 2)
    }

    @Test func staleQuotesDoNotFire() {
        var driver = Self.driver()
        Self.setAlert(&driver, ">190")
        driver.now = t0.addingTimeInterval(60)
        #expect(driver.send(Self.batch("alpha", "AAPL", 200, at: t0)).isEmpty)
        #expect(driver.state.alertLog.isEmpty)
    }

    @Test func theLogShowsFiredAndSetAlertsClearsHighlightsAndDeletes() {
        var driver = Self.driver()
        Self.setAlert(&driver, ">190")
        driver.press(.down, .down)  // MSFT, alpha
        Self.setAlert(&driver, "<400 @")
        driver.send(Self.batch("alpha", "AAPL", 191))
        #expect(!driver.state.alertedRows.isEmpty)
        driver.press(.character("L"))
        #expect(driver.state.front == .alertLog(AlertLogScreen()))
        #expect(driver.state.alertedRows.isEmpty)
        driver.press(.character("j"))
        #expect(driver.state.front == .alertLog(AlertLogScreen(selectedID: 2)))
        driver.press(.character("d"))
        #expect(driver.book.alerts.alerts.map(\.id) == [1])
        #expect(driver.state.alerts.alerts.map(\.id) == [1])
        #expect(driver.state.message?.text == "Deleted alert #2: MSFT < 400 · alpha")
        driver.press(.character("d"))
        #expect(driver.state.alerts.isEmpty)
        driver.press(.character("d"))
        #expect(driver.state.message?.text == "No alerts to delete; ! on a row sets one")
        driver.press(.escape)
        #expect(driver.state.front == .watchlist)
    }

    @Test func alertSymbolsAreFollowedEvenWhenNotShown() {
        var driver = Self.driver(symbols: ["AAPL"])
        Self.setAlert(&driver, ">1")
        driver.send(.alertsPersisted(.add(AlertDraft(symbol: "TSLA", condition: .below(5), scope: .any, rearm: .once)), .success(
            AlertEditOutcome(alerts: {
                var book = driver.book.alerts
                book.add(AlertDraft(symbol: "TSLA", condition: .below(5), scope: .any, rearm: .once), at: t0)
                return book
            }()))))
        #expect(driver.followedByEffects.contains("TSLA"))
        #expect(driver.state.symbols == ["AAPL"])
    }

    @Test func aFailedSaveIsSaidAndTheEvaluatedStateKept() {
        var driver = Self.driver()
        Self.setAlert(&driver, ">190")
        let error = WatchlistStoreError(operation: .write, path: "/state/watchlist.json", reason: "No space left on device")
        // The runtime's answer to the record comes back failed.
        let effects = driver.state.update(Self.batch("alpha", "AAPL", 191), at: t0)
        guard case .persistAlerts(let edit)? = effects.last else {
            Issue.record("no save asked for: \(effects)")
            return
        }
        _ = driver.state.update(.alertsPersisted(edit, .failure(error)), at: t0)
        #expect(driver.state.message?.text.hasPrefix("Could not save the alerts that fired: cannot write /state/watchlist.json") == true)
        #expect(driver.state.alerts.alerts.first?.isArmed == false)
    }
}
