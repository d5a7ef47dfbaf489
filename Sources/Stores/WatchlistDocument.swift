import Domain
import Foundation
import TextSafety

/// The on-disk form of the watchlists:
///
///     {"lists": [{"name": "Tech", "symbols": ["AAPL", "MSFT"]}, {"name": "Indexes", "symbols": ["^GSPC"]}], "version": 2}
///
/// Version 1, from before there were several lists, is `{"symbols": ["AAPL", "MSFT"], "version": 1}`: it
/// reads as one list named "Watchlist", and the first edit writes version 2.
enum WatchlistDocument {
    static let currentVersion = 2

    /// Pretty-printed with sorted keys and a trailing newline, so the file diffs well and reads well.
    static func encoded(_ book: WatchlistBook) -> Data {
        let encoder = JSONEncoder()
        // Symbols such as BRK/B would otherwise be written as BRK\/B.
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding Ints and Strings cannot fail.
        var data = try! encoder.encode(Version2(version: currentVersion, lists: book.lists))
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
                return lists(document.lists)
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
    }

    /// Decoded first so a file from a newer version is reported as such, not as a shape mismatch.
    private struct VersionProbe: Decodable {
        var version: Int
    }
}
