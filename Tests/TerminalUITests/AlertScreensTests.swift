import Domain
import Foundation
import Interactors
import TerminalKit
import Testing
import TerminalUI

/// The alert dialog (`!`), the alert log (`L`) and a row whose alert fired, at the four sizes.
@Suite struct AlertScreensTests {
    typealias F = WatchlistFixture
    static let sizes = [(200, 50), (120, 35), (80, 24), (60, 20)]

    static let context = AlertInput.Context(
        symbol: "AAPL", rowBroker: F.beta, brokers: [F.alpha, F.beta, F.gamma],
        lastPrices: ["demo-alpha": exactDecimal("189.84"), "demo-beta": exactDecimal("189.86")])

    static var alerts: AlertBook {
        var book = AlertBook()
        book.add(AlertDraft(symbol: "AAPL", condition: .above(exactDecimal("189.85")), scope: .any, rearm: .once), at: F.ago(600))
        book.add(AlertDraft(symbol: "MSFT", condition: .move(percent: exactDecimal("-3"), reference: exactDecimal("414.56")), scope: .broker("demo-alpha"), rearm: .whenCleared), at: F.ago(500))
        book.add(AlertDraft(symbol: "NVDA", condition: .below(exactDecimal("120")), scope: .broker("demo-gamma"), rearm: .once), at: F.ago(400))
        var fired = book.alerts[0]
        fired.isArmed = false
        fired.lastFired = Alert.Fired(at: F.ago(3), brokerID: "demo-beta", price: exactDecimal("189.86"))
        var rearmed = book.alerts[1]
        rearmed.lastFired = Alert.Fired(at: F.ago(90), brokerID: "demo-alpha", price: exactDecimal("402.12"))
        book.adoptStates(of: [fired, rearmed])
        return book
    }

    static func state(front: FrontScreen, alerted: Set<QuoteKey> = []) -> WatchlistViewState {
        var state = F.state(front: front, message: nil)
        state.alerts = alerts
        state.alertLog = [
            AlertFiring(alert: alerts.alerts[1], brokerID: "demo-alpha", price: exactDecimal("402.12"), at: F.ago(90)),
            AlertFiring(alert: alerts.alerts[0], brokerID: "demo-beta", price: exactDecimal("189.86"), at: F.ago(3)),
        ]
        state.alertedRows = alerted
        return state
    }

    @Test func theDialog() {
        for (columns, rows) in Self.sizes {
            let frame = F.render(Self.state(front: .alertDialog(AlertDialog(context: Self.context))), columns: columns, rows: rows)
            Snapshot.expect(frame, matches: "alert-dialog-\(columns)x\(rows)")
            #expect(frame.lines[rows - 2].hasPrefix(" Alert on AAPL: "), "typed in the status line")
            if columns >= 80 { #expect(frame.lines[rows - 1].contains("Enter set alert"), "the footer has the dialog's keys") }
        }
        let wide = F.render(Self.state(front: .alertDialog(AlertDialog(context: Self.context))), columns: 120, rows: 35)
        #expect(wide.lines.contains { $0.contains("AAPL  last: Alpha Demo 189.84 · Beta Demo 189.86 · Gamma Flaky —") })
        #expect(wide.lines.contains { $0.contains("only on Beta Demo, this row's broker") })
    }

    @Test func theDialogWithARefusal() {
        let refused = AlertDialog(context: Self.context, prompt: TextPrompt(text: ">19O", error: "'>19O' needs a price above 0 after >, such as >190.5", limit: 80))
        for (columns, rows) in Self.sizes {
            let frame = F.render(Self.state(front: .alertDialog(refused)), columns: columns, rows: rows)
            Snapshot.expect(frame, matches: "alert-dialog-refused-\(columns)x\(rows)")
            let text = frame.lines.joined(separator: "\n")
            #expect(text.contains("Alert on AAPL: >19O"), "what was typed is kept")
            #expect(text.contains("needs a price above 0"))
        }
    }

    @Test func theLog() {
        for (columns, rows) in Self.sizes {
            let frame = F.render(Self.state(front: .alertLog(AlertLogScreen(selectedID: 2))), columns: columns, rows: rows)
            Snapshot.expect(frame, matches: "alert-log-\(columns)x\(rows)")
            if columns >= 80 { #expect(frame.lines[rows - 1].contains("d delete"), "the footer has the log's keys") }
        }
        let frame = F.render(Self.state(front: .alertLog(AlertLogScreen(selectedID: 2))), columns: 120, rows: 35)
        let lines = frame.lines
        // Newest first: the AAPL firing 3 s ago, then MSFT's 90 s ago.
        let aapl = lines.firstIndex { $0.contains("12:13:17  AAPL") }
        let msft = lines.firstIndex { $0.contains("12:11:50  MSFT") }
        #expect(aapl != nil && msft != nil && aapl! < msft!)
        #expect(lines.contains { $0.contains("AAPL  Beta Demo    > 189.85") && $0.contains("189.86") })
        // The selected alert in reverse video.
        #expect(lines.contains { $0.contains("▶ #2") })
        if let selected = lines.firstIndex(where: { $0.contains("▶ #2") }) {
            #expect(frame.cells(showing: "#2", row: selected).allSatisfy { $0.style.reverse })
            #expect(lines[selected].contains("-3% from 414.56") && lines[selected].contains("Alpha Demo") && lines[selected].contains("rearms"))
        }
        #expect(lines.contains { $0.contains("#3") && $0.contains("< 120") && $0.contains("Gamma Flaky") && $0.contains("armed") })
    }

    @Test func theEmptyLog() {
        var state = F.state(front: .alertLog(AlertLogScreen()), message: nil)
        state.alerts = AlertBook()
        let frame = F.render(state, columns: 80, rows: 24)
        Snapshot.expect(frame, matches: "alert-log-empty-80x24")
        #expect(frame.lines.contains { $0.contains("nothing yet") })
        #expect(frame.lines.contains { $0.contains("none: ! on a row sets one") })
    }

    @Test func aRowWhoseAlertFiredIsMarkedAndHighlighted() {
        let key = QuoteKey(brandID: "demo-alpha", symbol: "MSFT")
        for (columns, rows) in Self.sizes {
            Snapshot.expect(F.render(Self.state(front: .watchlist, alerted: [key]), columns: columns, rows: rows), matches: "alert-row-\(columns)x\(rows)")
        }
        let row = 2 + F.Index.downRow
        let colored = F.render(Self.state(front: .watchlist, alerted: [key]), columns: 100, rows: 30)
        #expect(colored.lines[row].hasPrefix("!"), "the margin marks it without color")
        #expect(colored.cells(showing: "MSFT", row: row).allSatisfy { $0.style.background == .magenta })
        #expect(colored.lines[row + 1].hasPrefix(" "), "only the row that fired")
        let mono = F.render(Self.state(front: .watchlist, alerted: [key]), columns: 100, rows: 30, options: F.monochrome)
        #expect(mono.lines[row].hasPrefix("!"))
        #expect(mono.cells(showing: "MSFT", row: row).allSatisfy { $0.style.underline && $0.style.bold })
        let seen = F.render(Self.state(front: .watchlist), columns: 100, rows: 30)
        #expect(seen.lines[row].hasPrefix(" "))
        #expect(seen.cells(showing: "MSFT", row: row).allSatisfy { $0.style.background != .magenta })
    }

    @Test func helpListsTheAlertKeys() {
        let frame = F.render(F.state(front: .help, message: nil), columns: 120, rows: 40)
        let text = frame.lines.joined(separator: "\n")
        #expect(text.split(separator: "\n").contains { $0.contains("!  L ") && $0.contains("price alert on the selected row / alert log") })
        #expect(text.contains("~ stale · ! alert fired, or broker off the others"))
        // Still whole in a 100x30 terminal.
        let usual = F.render(F.state(front: .help, message: nil), columns: 100, rows: 30).lines.joined(separator: "\n")
        #expect(usual.contains("In the add prompt") && !usual.contains("more in a taller terminal"))
    }
}
