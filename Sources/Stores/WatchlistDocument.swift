import Domain
import Foundation
import TextSafety

/// The on-disk form of the watchlists:
///
///     {"lists": [{"name": "Tech", "symbols": ["AAPL", "MSFT"]}, {"name": "Indexes", "symbols": ["^GSPC"]}], "version": 2}
///
/// Version 1, from before there were several lists, is `{"symbols": ["AAPL", "MSFT"], "version": 1}`: it
/// reads as one list named "Watchlist", and the first edit writes version 2.
///
/// Alerts are an optional `"alerts": [...]` beside the lists (see `AlertRecord`), written only when there
/// are some, so a file without alerts is byte for byte what earlier versions wrote and read. An entry
/// that cannot be read is kept as it is and named in a `WatchlistLoadNote`; the rest loads.
enum WatchlistDocument {
    static let currentVersion = 2

    /// Pretty-printed with sorted keys and a trailing newline, so the file diffs well and reads well.
    static func encoded(_ book: WatchlistBook) -> Data {
        let encoder = JSONEncoder()
        // Symbols such as BRK/B would otherwise be written as BRK\/B.
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding Ints and Strings cannot fail.
        let alerts = book.alerts.alerts.map(AlertRecord.json) + book.unreadableAlerts.map(\.json)
        var data = try! encoder.encode(Version2(version: currentVersion, lists: book.lists, alerts: alerts.isEmpty ? nil : alerts))
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The lists in `data`, symbols in canonical form without duplicates, or why the file is unusable.
    static func book(from data: Data) -> Result<WatchlistBook, CorruptReason> {
        let versionOnly: VersionProbe
        do {
            versionOnly = try JSONDecoder().decode(VersionProbe.self, from: data)
        } catch {
            return .failure(CorruptReason(decodingError: error))
        }
        do {
            switch versionOnly.version {
            case 1:
                let document = try JSONDecoder().decode(Version1.self, from: data)
                return symbols(document.symbols, in: "the watchlist").map(WatchlistBook.init(symbols:))
            case 2:
                let document = try JSONDecoder().decode(Version2.self, from: data)
                return lists(document.lists).map { withAlerts(document.alerts ?? [], in: $0) }
            default:
                return .failure(CorruptReason("unsupported version \(versionOnly.version), expected \(currentVersion)"))
            }
        } catch {
            return .failure(CorruptReason(decodingError: error))
        }
    }

    /// Whether `data` (already read successfully) is written in the current version; an older one is
    /// rewritten at the first edit.
    static func isCurrentVersion(_ data: Data) -> Bool {
        (try? JSONDecoder().decode(VersionProbe.self, from: data))?.version == currentVersion
    }

    private static func lists(_ raw: [NamedWatchlist]) -> Result<WatchlistBook, CorruptReason> {
        guard !raw.isEmpty else { return .failure(CorruptReason("no lists")) }
        var lists: [NamedWatchlist] = []
        for (index, list) in raw.enumerated() {
            guard case .success(let name) = NamedWatchlist.validateName(list.name, existing: lists.map(\.name)) else {
                return .failure(CorruptReason("list \(index + 1) has a bad or repeated name '\(VisibleText.escaped(list.name))'"))
            }
            switch symbols(list.symbols, in: "list '\(VisibleText.escaped(name))'") {
            case .success(let symbols): lists.append(NamedWatchlist(name: name, symbols: symbols))
            case .failure(let reason): return .failure(reason)
            }
        }
        return .success(WatchlistBook(lists: lists))
    }

    /// Every entry that reads as an alert with an id not seen before joins the book; the others are kept
    /// aside, each with what is wrong, numbered from 1 as they stand in the file.
    private static func withAlerts(_ entries: [StoredJSON], in book: WatchlistBook) -> WatchlistBook {
        var book = book
        var alerts: [Alert] = []
        var reserved = Set<Int>()
        for (index, entry) in entries.enumerated() {
            var name = "entry \(index + 1)"
            if case .object(let fields) = entry, case .number(let id)? = fields["id"] {
                name += " (id \(id))"
                if let whole = Int(id.description) { reserved.insert(whole) }
            }
            switch AlertRecord.alert(from: entry) {
            case .success(let alert) where alerts.contains(where: { $0.id == alert.id }):
                book.unreadableAlerts.append(UnreadableAlertEntry(json: entry, problem: "\(name): the id is used by an earlier alert"))
            case .success(let alert):
                alerts.append(alert)
            case .failure(let problem):
                book.unreadableAlerts.append(UnreadableAlertEntry(json: entry, problem: "\(name): \(problem)"))
            }
        }
        book.alerts = AlertBook(alerts: alerts, reservedIDs: reserved.subtracting(alerts.map(\.id)))
        return book
    }

    private static func symbols(_ raw: [String], in place: String) -> Result<[String], CorruptReason> {
        var seen = Set<String>()
        var symbols: [String] = []
        for symbol in raw {
            switch Symbol.normalize(symbol) {
            case .success(let symbol):
                if seen.insert(symbol).inserted { symbols.append(symbol) }
            case .failure(let error):
                return .failure(CorruptReason("invalid symbol in \(place): \(error)"))
            }
        }
        return .success(symbols)
    }

    private struct Version1: Codable {
        var version: Int
        var symbols: [String]
    }

    private struct Version2: Codable {
        var version: Int
        var lists: [NamedWatchlist]
        var alerts: [StoredJSON]?
    }

    /// Decoded first so a file from a newer version is reported as such, not as a shape mismatch.
    private struct VersionProbe: Decodable {
        var version: Int
    }
}
