import Domain
import Foundation
import Networking
import TerminalKit
import TextSafety

/// How `commonbroker alerts` prints alerts and firings: aligned text for people, JSON for scripts, with
/// prices as JSON numbers spelled with their exact digits (as `print --json` does).
struct AlertsReport {
    let brokers: [ServiceBranding]

    /// `2026-11-25T03:12:09Z AAPL > 190.5 fired at 190.62 on Alpha Demo (alert #1)`.
    func line(_ firing: AlertFiring) -> String {
        "\(SnapshotReport.timestamp(firing.at)) \(TerminalText.sanitize(firing.symbol)) \(firing.alert.condition.summary) "
            + "fired at \(firing.price) on \(TerminalText.sanitize(brokerName(firing.brokerID))) (alert #\(firing.alert.id))"
    }

    /// One firing as one line of JSON (JSON Lines: one object per fired alert, for `jq`).
    func jsonLine(_ firing: AlertFiring) -> String {
        object(fields(of: firing.alert) + [
            ("firedAt", string(SnapshotReport.timestamp(firing.at))),
            ("firedBroker", string(firing.brokerID)),
            ("firedBrokerName", string(brokerName(firing.brokerID))),
            ("firedPrice", firing.price.description),
        ])
    }

    /// Every alert as a JSON array, one object a line.
    func json(_ alerts: [Alert]) -> String {
        guard !alerts.isEmpty else { return "[]\n" }
        return "[\n" + alerts.map { "  " + object(fields(of: $0)) }.joined(separator: ",\n") + "\n]\n"
    }

    func table(_ alerts: [Alert]) -> String {
        guard !alerts.isEmpty else { return "No alerts; ! on a row in the app sets one\n" }
        let header = ["ID", "SYMBOL", "CONDITION", "BROKER", "REARM", "STATE", "LAST FIRED"]
        let rows = alerts.map { alert -> [String] in
            [
                "#\(alert.id)", TerminalText.sanitize(alert.symbol), alert.condition.summary,
                TerminalText.sanitize(scopeName(alert.scope)), alert.rearm == .whenCleared ? "rearms" : "once",
                alert.isArmed ? "armed" : "fired",
                alert.lastFired.map { "\(SnapshotReport.timestamp($0.at)) at \($0.price) on \(TerminalText.sanitize(brokerName($0.brokerID)))" } ?? "—",
            ]
        }
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { TerminalText.width($0[column]) }.max() ?? 0 }
        return all.map { cells in
            cells.indices.map { column in
                column == cells.count - 1 ? cells[column] : cells[column] + String(repeating: " ", count: widths[column] - TerminalText.width(cells[column]))
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    private func fields(of alert: Alert) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("id", String(alert.id)),
            ("symbol", string(alert.symbol)),
        ]
        switch alert.condition {
        case .above(let price): fields += [("condition", string("above")), ("price", price.description)]
        case .below(let price): fields += [("condition", string("below")), ("price", price.description)]
        case .move(let percent, let reference):
            fields += [("condition", string("move")), ("percent", percent.description), ("reference", reference.description)]
        }
        fields += [
            ("summary", string(alert.condition.summary)),
            ("broker", string(alert.scope.storedName)),
            ("rearm", alert.rearm == .whenCleared ? "true" : "false"),
            ("state", string(alert.isArmed ? "armed" : "fired")),
            ("created", string(SnapshotReport.timestamp(alert.createdAt))),
        ]
        return fields
    }

    private func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    private func string(_ value: String) -> String {
        JSONStringLiteral.quoted(value)
    }

    private func brokerName(_ id: String) -> String {
        brokers.first { $0.id == id }?.name ?? id
    }

    private func scopeName(_ scope: AlertBrokerScope) -> String {
        switch scope {
        case .any: "any"
        case .broker(let id): brokerName(id)
        }
    }
}
