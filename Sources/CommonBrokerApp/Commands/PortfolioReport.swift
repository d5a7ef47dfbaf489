import Domain
import Foundation
import Interactors
import Stores
import TextSafety

/// `print positions` and `print orders` as text: an aligned table, JSON (amounts as exact decimal
/// strings, so no reader rounds them through a double) or CSV (RFC 4180). Broker text is escaped as on
/// screen.
public enum PortfolioReport {
    public enum Kind: String, Sendable, Equatable {
        case positions, orders
    }

    public enum Format: Sendable, Equatable {
        case table, json, csv
    }

    static let positionColumns = [
        "broker", "account", "symbol", "quantity", "averageCost", "last", "marketValue", "unrealizedPnL", "unrealizedPnLPercent", "todayPnL", "realizedPnL",
    ]
    static let orderColumns = [
        "broker", "id", "updated", "side", "quantity", "symbol", "type", "limit", "stop", "timeInForce", "status", "filled", "averageFillPrice", "reason",
    ]

    static func positions(_ summary: PositionsSummary, format: Format) -> String {
        let rows = summary.lines.map { line -> [String?] in
            let position = line.position
            return [
                line.branding.id, position.account, position.symbol, position.quantity.description, position.averageCost.description,
                position.lastPrice?.description, position.marketValue?.description, position.unrealizedPnL?.description,
                position.unrealizedPnLPercent?.description, position.todayPnL?.description, position.realizedPnL?.description,
            ]
        }
        let totals = summary.totals
        let total: [String?] = [
            "total", nil, nil, nil, nil, nil, totals.marketValue.description, totals.unrealizedPnL.description,
            totals.unrealizedPnLPercent?.description, totals.todayPnL?.description, totals.realizedPnL?.description,
        ]
        switch format {
        case .csv:
            return csv(header: positionColumns, rows: rows + [total])
        case .table:
            var text = table(header: positionColumns, rows: rows + (rows.isEmpty ? [] : [total]))
            for account in summary.accounts {
                let balance = account.balance
                text += "\(VisibleText.escaped(account.branding.name)) \(VisibleText.escaped(balance.accountID)): cash \(balance.cash?.description ?? "—"), equity \(balance.equity?.description ?? "—"), buying power \(balance.buyingPower?.description ?? "—")\n"
            }
            return text
        case .json:
            let accounts = summary.accounts.map { account in
                object([
                    ("broker", string(account.branding.id)), ("account", string(account.balance.accountID)),
                    ("cash", string(account.balance.cash?.description)), ("equity", string(account.balance.equity?.description)),
                    ("buyingPower", string(account.balance.buyingPower?.description)),
                ])
            }
            return "{\n  \"positions\": " + array(rows.map { object(zip(positionColumns, $0.map(string)).map { ($0, $1) }) })
                + ",\n  \"totals\": " + object(zip(positionColumns.dropFirst(5), total.dropFirst(5).map(string)).map { ($0, $1) })
                + ",\n  \"accounts\": " + array(accounts)
                + ",\n  \"errors\": " + array(summary.problems.map { object([("broker", string($0.branding.id)), ("error", string($0.reason))]) })
                + "\n}\n"
        }
    }

    static func orders(_ rows: [OrdersScreen.OrderRow], problems: [(String, String)], format: Format) -> String {
        let cells = rows.map { row -> [String?] in
            let order = row.order
            return [
                row.brokerID, order.id.rawValue, timestamp(order.updatedAt), order.side.rawValue, order.request.quantity.description,
                order.symbol, order.request.type.name, order.request.type.limitPrice?.description, order.request.type.stopPrice?.description,
                order.request.timeInForce.rawValue, order.status.name, order.filledQuantity.description,
                order.averageFillPrice?.description, order.rejectReason,
            ]
        }
        switch format {
        case .csv: return csv(header: orderColumns, rows: cells)
        case .table: return table(header: orderColumns, rows: cells)
        case .json:
            return "{\n  \"orders\": " + array(cells.map { object(zip(orderColumns, $0.map(string)).map { ($0, $1) }) })
                + ",\n  \"errors\": " + array(problems.map { object([("broker", string($0.0)), ("error", string($0.1))]) })
                + "\n}\n"
        }
    }

    // MARK: Formats

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// A JSON string with every control, DEL, C1 and bidi scalar as `\uXXXX`, or `null`.
    static func string(_ value: String?) -> String {
        guard let value else { return "null" }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if VisibleText.isSteering(scalar) {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    private static func array(_ items: [String]) -> String {
        items.isEmpty ? "[]" : "[\n    " + items.joined(separator: ",\n    ") + "\n  ]"
    }

    /// RFC 4180 (`CSVDocument`), outside text escaped.
    static func csv(header: [String], rows: [[String?]]) -> String {
        CSVDocument.text(header: header, rows: rows)
    }

    private static func table(header: [String], rows: [[String?]]) -> String {
        let cells = rows.map { $0.map { VisibleText.escaped($0 ?? "—") } }
        var widths = header.map(\.count)
        for row in cells { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        func line(_ values: [String]) -> String {
            zip(values, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        return ([line(header)] + cells.map(line)).joined(separator: "\n") + "\n"
    }
}
