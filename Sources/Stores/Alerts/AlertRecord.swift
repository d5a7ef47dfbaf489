import Domain
import Foundation
import TextSafety

/// One alert as the watchlist file writes it: amounts as strings (exact), dates in ISO 8601 UTC.
///
///     {"broker": "any", "condition": "above", "created": "2026-11-25T03:00:00Z", "id": 1,
///      "price": "190.5", "rearm": false, "state": "armed", "symbol": "AAPL"}
///
/// `condition` is `above` or `below` with `price`, or `move` with `percent` (signed) and `reference`
/// (the price when it was set). `state` is `armed` or `fired`; `fired` (`at`, `broker`, `price`) is
/// the last time it fired, when it has.
enum AlertRecord {
    static func json(_ alert: Alert) -> StoredJSON {
        var fields: [String: StoredJSON] = [
            "id": .number(Decimal(alert.id)),
            "symbol": .string(alert.symbol),
            "broker": .string(alert.scope.storedName),
            "rearm": .bool(alert.rearm == .whenCleared),
            "created": .string(timestamp(alert.createdAt)),
            "state": .string(alert.isArmed ? "armed" : "fired"),
        ]
        switch alert.condition {
        case .above(let price):
            fields["condition"] = .string("above")
            fields["price"] = .string(price.description)
        case .below(let price):
            fields["condition"] = .string("below")
            fields["price"] = .string(price.description)
        case .move(let percent, let reference):
            fields["condition"] = .string("move")
            fields["percent"] = .string(percent.description)
            fields["reference"] = .string(reference.description)
        }
        if let fired = alert.lastFired {
            fields["fired"] = .object([
                "at": .string(timestamp(fired.at)),
                "broker": .string(fired.brokerID),
                "price": .string(fired.price.description),
            ])
        }
        return .object(fields)
    }

    /// The alert in `json`, or what is wrong with it, naming the field.
    static func alert(from json: StoredJSON) -> Result<Alert, Problem> {
        do throws(Problem) {
            guard case .object(let fields) = json else { throw Problem("not a JSON object") }
            let reader = FieldReader(fields: fields)
            let id = try reader.integer("id")
            let symbol: String
            switch Symbol.normalize(try reader.string("symbol")) {
            case .success(let normalized): symbol = normalized
            case .failure(let error): throw Problem("\"symbol\": \(error)")
            }
            let condition: AlertCondition
            switch try reader.string("condition") {
            case "above": condition = .above(try reader.positiveDecimal("price"))
            case "below": condition = .below(try reader.positiveDecimal("price"))
            case "move":
                let percent = try reader.decimal("percent")
                guard !percent.isZero else { throw Problem("\"percent\" is 0; a move alert needs a rise (5) or a fall (-3)") }
                condition = .move(percent: percent, reference: try reader.positiveDecimal("reference"))
            case let other:
                throw Problem("\"condition\" is \"\(VisibleText.escaped(other))\", expected above, below or move")
            }
            let broker = try reader.string("broker")
            guard !broker.isEmpty else { throw Problem("\"broker\" is empty, expected \"any\" or a broker id") }
            let rearm = try reader.bool("rearm")
            let created = try reader.date("created")
            let isArmed: Bool
            switch try reader.string("state") {
            case "armed": isArmed = true
            case "fired": isArmed = false
            case let other: throw Problem("\"state\" is \"\(VisibleText.escaped(other))\", expected armed or fired")
            }
            var lastFired: Alert.Fired?
            if let fired = fields["fired"], fired != .null {
                guard case .object(let firedFields) = fired else { throw Problem("\"fired\" is not an object") }
                let firedReader = FieldReader(fields: firedFields, prefix: "fired.")
                lastFired = Alert.Fired(
                    at: try firedReader.date("at"), brokerID: try firedReader.string("broker"),
                    price: try firedReader.positiveDecimal("price"))
            }
            return .success(Alert(
                id: id, symbol: symbol, condition: condition, scope: broker == "any" ? .any : .broker(broker),
                rearm: rearm ? .whenCleared : .once, createdAt: created, isArmed: isArmed, lastFired: lastFired))
        } catch {
            return .failure(error)
        }
    }

    struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    private struct FieldReader {
        var fields: [String: StoredJSON]
        var prefix = ""

        func value(_ key: String) throws(Problem) -> StoredJSON {
            guard let value = fields[key] else { throw Problem("missing \"\(prefix)\(key)\"") }
            return value
        }

        func string(_ key: String) throws(Problem) -> String {
            guard case .string(let text) = try value(key) else { throw Problem("\"\(prefix)\(key)\" is not a string") }
            return text
        }

        func bool(_ key: String) throws(Problem) -> Bool {
            guard case .bool(let flag) = try value(key) else { throw Problem("\"\(prefix)\(key)\" is not true or false") }
            return flag
        }

        func integer(_ key: String) throws(Problem) -> Int {
            guard case .number(let number) = try value(key), number >= 1, number <= 1_000_000_000,
                  let whole = Int(number.description) else {
                throw Problem("\"\(prefix)\(key)\" is not a whole number from 1 to 1000000000")
            }
            return whole
        }

        /// Amounts are strings, as written; a plain JSON number is read exactly too (a hand edit).
        func decimal(_ key: String) throws(Problem) -> ExactDecimal {
            let text: String
            switch try value(key) {
            case .string(let string): text = string
            case .number(let number): text = number.description
            default: throw Problem("\"\(prefix)\(key)\" is not a decimal")
            }
            guard let amount = ExactDecimal(parsing: text) else {
                throw Problem("\"\(prefix)\(key)\" is not a decimal: \"\(VisibleText.escaped(String(text.prefix(40))))\"")
            }
            return amount
        }

        func positiveDecimal(_ key: String) throws(Problem) -> ExactDecimal {
            let amount = try decimal(key)
            guard amount.isPositive else { throw Problem("\"\(prefix)\(key)\" is \(amount), expected a price above 0") }
            return amount
        }

        func date(_ key: String) throws(Problem) -> Date {
            let text = try string(key)
            guard let date = ISO8601DateFormatter().date(from: text) else {
                throw Problem("\"\(prefix)\(key)\" is not a date like 2026-11-25T03:00:00Z: \"\(VisibleText.escaped(String(text.prefix(40))))\"")
            }
            return date
        }
    }
}
