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

/// `commonbroker print`: the watchlist's quotes as a table, JSON or CSV, or as JSON lines (`--follow`), for scripts.
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

    /// The columns of `--json`, `--csv` and `--follow`, the same in all three: the row's key, the screen's
    /// columns (symbol, broker, last, change, change %, bid, ask, spread, volume, previous close) by their
    /// JSON names, the time the price was made (the screen counts its age from it) and the row's error.
    public static let columns = [
        "id", "symbol", "brand", "brandName", "last", "change", "changePercent", "bid", "ask", "spread", "volume", "previousClose",
        "timestamp", "error",
    ]

    /// The columns written as JSON numbers, spelled with the value's exact digits (`150.25`, `-0.5`, `10`),
    /// never through `Double`, so a script reads what the broker sent; `changePercent` has up to 8
    /// decimals (see `CommonQuote`). The rest are strings.
    private static let numericColumns: Set<String> = ["last", "change", "changePercent", "bid", "ask", "spread", "volume", "previousClose"]

    /// A JSON array of row objects. Absent values are `null`, so every object has every key.
    public static func json(_ rows: [SnapshotRow]) -> String {
        let objects = rows.map { "  " + object($0) }
        return objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    /// One row as one JSON object on one line, ending in a line feed: `--follow`'s unit, the same object
    /// as in `--json`'s array. JSON escapes every control character, so a line never breaks inside.
    public static func line(_ row: SnapshotRow) -> String {
        object(row) + "\n"
    }

    /// RFC 4180 CSV (`CSVDocument`): a header row of `columns`, then one record a row; absent values are
    /// empty fields.
    public static func csv(_ rows: [SnapshotRow]) -> String {
        CSVDocument.text(header: columns, rows: rows.map(values))
    }

    /// The rows of one batch from the feed, for `--follow`: a row per quote and per failure, sorted by
    /// symbol then broker.
    public static func rows(from update: MarketUpdate, brokerNames: [String: String]) -> [SnapshotRow] {
        let quotes = update.quotes.map { key, quote in SnapshotRow(key: key, brandName: brokerNames[key.brandID] ?? key.brandID, quote: quote) }
        let failures = update.failures.map { key, error in SnapshotRow(key: key, brandName: brokerNames[key.brandID] ?? key.brandID, error: error) }
        return (quotes + failures).sorted { $0.key < $1.key }
    }

    private static func object(_ row: SnapshotRow) -> String {
        let fields = zip(columns, values(row)).map { column, value in
            "\(string(column)): " + (value.map { numericColumns.contains(column) ? $0 : string($0) } ?? "null")
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// The row's value per column, in `columns`' order, unescaped (each format escapes its own way); nil
    /// where there is none.
    private static func values(_ row: SnapshotRow) -> [String?] {
        let quote = row.quote
        let spread = quote.flatMap { quote in quote.bid.flatMap { bid in quote.ask.flatMap { try? $0.subtracting(bid) } } }
        return [
            row.key.id, row.key.symbol, row.key.brandID, row.brandName,
            quote?.last.description, quote?.change?.description, quote?.changePercent?.description,
            quote?.bid?.description, quote?.ask?.description, spread?.description, quote?.volume.map(String.init),
            quote?.previousClose?.description, quote.map { timestamp($0.timestamp) }, row.error?.description,
        ]
    }

    /// An aligned plain-text table with the screen's columns (volume, and the age of each price at `now`,
    /// or "closed" for a price from the last session while `market` is closed, as on screen); text from
    /// brokers is escaped as on screen.
    public static func table(_ rows: [SnapshotRow], now: Date, market: MarketState? = nil) -> String {
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
                quote.map { QuoteFormatting.age(since: $0.timestamp, now: now, symbol: row.key.symbol, market: market) } ?? missing,
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

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
