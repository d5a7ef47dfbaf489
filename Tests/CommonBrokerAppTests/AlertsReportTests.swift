import Domain
import Foundation
import Interactors
import Testing
@testable import CommonBrokerApp

@Suite struct AlertsReportTests {
    static let setAt = Date(timeIntervalSince1970: 1_763_900_000)
    static let alpha = ServiceBranding(id: "demo-alpha", name: "Alpha Demo", glyph: "α", color: .cyan)
    let report = AlertsReport(brokers: [alpha])

    static var book: AlertBook {
        var book = AlertBook()
        book.add(AlertDraft(symbol: "AAPL", condition: .above(exactDecimal("190.5")), scope: .any, rearm: .once), at: setAt)
        book.add(AlertDraft(symbol: "MSFT", condition: .move(percent: exactDecimal("-0.25"), reference: exactDecimal("402.1")), scope: .broker("demo-alpha"), rearm: .whenCleared), at: setAt)
        return book
    }

    /// One JSON object a line, numbers with their exact digits.
    @Test func aFiringIsOneJSONLine() {
        var alert = Self.book.alerts[0]
        alert.isArmed = false
        let firing = AlertFiring(alert: alert, brokerID: "demo-alpha", price: exactDecimal("190.50"), at: Self.setAt.addingTimeInterval(5))
        #expect(report.jsonLine(firing) == """
            {"id": 1, "symbol": "AAPL", "condition": "above", "price": 190.5, "summary": "> 190.5", "broker": "any", "rearm": false, \
            "state": "fired", "created": "2025-11-23T12:13:20.000Z", "firedAt": "2025-11-23T12:13:25.000Z", "firedBroker": "demo-alpha", \
            "firedBrokerName": "Alpha Demo", "firedPrice": 190.5}
            """)
        #expect(report.line(firing) == "2025-11-23T12:13:25.000Z AAPL > 190.5 fired at 190.5 on Alpha Demo (alert #1)")
    }

    @Test func theListAsTextAndJSON() {
        let alerts = Self.book.alerts
        #expect(report.table(alerts) == """
            ID  SYMBOL  CONDITION          BROKER      REARM   STATE  LAST FIRED
            #1  AAPL    > 190.5            any         once    armed  —
            #2  MSFT    -0.25% from 402.1  Alpha Demo  rearms  armed  —

            """)
        #expect(report.json(alerts).contains(#"{"id": 2, "symbol": "MSFT", "condition": "move", "percent": -0.25, "reference": 402.1, "summary": "-0.25% from 402.1", "broker": "demo-alpha", "rearm": true"#))
        #expect(report.json([]) == "[]\n")
        #expect(report.table([]) == "No alerts; ! on a row in the app sets one\n")
    }

    /// argv, never a shell; `--` before the text; controls spelled out; markup characters as entities.
    @Test func desktopNotificationArguments() {
        let arguments = DesktopNotifier.arguments(for: DesktopNotification(title: "-AAPL < 180\u{1b}[2J", body: "AAPL 179 at <b>Alpha</b> & co\u{7}"))
        #expect(arguments == ["--app-name=commonbroker", "--", "-AAPL < 180\\u{1b}[2J", "AAPL 179 at &lt;b&gt;Alpha&lt;/b&gt; &amp; co\\u{7}"])
    }

    @Test func notifySendIsFoundOnThePathOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(DesktopNotifier.find(environment: ["PATH": directory.path]) == nil)
        let tool = directory.appendingPathComponent("notify-send")
        try Data("#!/bin/sh\n".utf8).write(to: tool)
        #expect(DesktopNotifier.find(environment: ["PATH": directory.path]) == nil, "not executable")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
        #expect(DesktopNotifier.find(environment: ["PATH": "/nonexistent:" + directory.path])?.executable == tool.path)
        #expect(DesktopNotifier.find(environment: [:]) == nil)
    }

    @Test func configAlertsSection() throws {
        let config = try AppConfig.load(contentsOf: #"{"alerts": {"bell": false, "desktop": true}}"#, path: "c.json").get()
        #expect(config.alerts == AppConfig.Alerts(bell: false, desktop: true))
        #expect(AppConfig.default.alerts == AppConfig.Alerts(bell: true, desktop: false))
        guard case .failure(let error) = AppConfig.load(contentsOf: #"{"alerts": {"bel": false}}"#, path: "c.json") else {
            Issue.record("an unknown key was accepted")
            return
        }
        #expect(error.description.contains("alerts.bel"), "\(error)")
        guard case .failure(let typeError) = AppConfig.load(contentsOf: #"{"alerts": {"desktop": "yes"}}"#, path: "c.json") else {
            Issue.record("a string was accepted for a bool")
            return
        }
        #expect(typeError.description.contains("alerts.desktop"), "\(typeError)")
    }
}
