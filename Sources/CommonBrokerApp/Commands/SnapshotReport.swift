import TerminalKit
import Domain
import Foundation
import Interactors
import Networking
import TerminalUI

/// One (symbol, broker) line of `commonbroker print`.
public struct SnapshotRow: Sendable, Hashable {
    public var key: QuoteKey
    public var brandName: String
    public var quote: CommonQuote?
    public var error: BrokerError?

    public init(key: QuoteKey, brandName: String, quote: CommonQuote? = nil, error: BrokerError? = nil) {
        self.key = key
        self.brandName = brandName
        self.quote = quote
        self.error = error
    }
}

/// `commonbroker print`: one snapshot of the watchlist as a table or JSON, for scripts.
public enum SnapshotReport {
    /// Every (symbol, broker) pair, sorted by symbol then brand id. A pair nobody answered for is an error row.
    public static func rows(symbols: [String], brokers: [ServiceBranding], results: [FanOutResult]) -> [SnapshotRow] {
        let byBroker = Dictionary(results.map { ($0.branding.id, $0.results) }, uniquingKeysWith: { first, _ in first })
        var rows: [SnapshotRow] = []
        for symbol in Set(symbols) {
            for broker in brokers {
                let key = QuoteKey(brandID: broker.id, symbol: symbol)
                switch byBroker[broker.id]?[symbol] {
                case .success(let quote): rows.append(SnapshotRow(key: key, brandName: broker.name, quote: quote))
                case .failure(let error): rows.append(SnapshotRow(key: key, brandName: broker.name, error: error))
                case nil: rows.append(SnapshotRow(key: key, brandName: broker.name, error: .network("no answer")))
                }
            }
        }
        return rows.sorted { $0.key < $1.key }
    }

    /// A JSON array of row objects. Absent values are `null`, so every object has every key.
    public static func json(_ rows: [SnapshotRow]) -> String {
        let objects = rows.map { row -> String in
            let quote = row.quote
            let fields: [(String, String)] = [
                ("id", string(row.key.id)),
                ("symbol", string(row.key.symbol)),
                ("brand", string(row.key.brandID)),
                ("brandName", string(row.brandName)),
                ("last", number(quote?.last)),
                ("change", number(quote?.change)),
                ("changePercent", number(quote?.changePercent)),
                ("bid", number(quote?.bid)),
                ("ask", number(quote?.ask)),
                ("volume", quote?.volume.map(String.init) ?? "null"),
                ("timestamp", quote.map { string(timestamp($0.timestamp)) } ?? "null"),
                ("error", row.error.map { string($0.description) } ?? "null"),
            ]
            return "  {" + fields.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
        }
        return objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    /// An aligned plain-text table with the screen's columns (volume, and the age of each price at `now`);
    /// text from brokers is escaped as on screen.
    public static func table(_ rows: [SnapshotRow], now: Date) -> String {
        let header = ["SYMBOL", "BROKER", "LAST", "CHANGE", "CHG%", "BID", "ASK", "VOLUME", "AGE", "STATUS"]
        let missing = QuoteFormatting.missing
        let body = rows.map { row -> [String] in
            let quote = row.quote
            return [
                TerminalText.sanitize(row.key.symbol),
                TerminalText.sanitize(row.brandName),
                quote.map { QuoteFormatting.price($0.last) } ?? missing,
                quote?.change.map { QuoteFormatting.change($0) } ?? missing,
                quote?.changePercent.map { QuoteFormatting.percent($0) } ?? missing,
                quote?.bid.map { QuoteFormatting.price($0) } ?? missing,
                quote?.ask.map { QuoteFormatting.price($0) } ?? missing,
                quote?.volume.map { QuoteFormatting.volume($0) } ?? missing,
                quote.map { QuoteFormatting.age(since: $0.timestamp, now: now) } ?? missing,
                row.error.map { TerminalText.sanitize($0.description) } ?? "ok",
            ]
        }
        let all = [header] + body
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        let numeric = Set(2...8)
        return all.map { cells in
            cells.indices.map { column in
                let cell = cells[column]
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return numeric.contains(column) ? pad + cell : (column == cells.count - 1 ? cell : cell + pad)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    static func string(_ value: String) -> String {
        JSONStringLiteral.quoted(value)
    }

    /// A JSON number spelled with the value's exact digits (`150.25`, `-0.5`, `10`), never through `Double`,
    /// so a script reads what the broker sent; `changePercent` has up to 8 decimals (see `CommonQuote`).
    static func number(_ value: ExactDecimal?) -> String {
        value?.description ?? "null"
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
