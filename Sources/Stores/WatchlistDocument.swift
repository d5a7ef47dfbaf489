import Domain
import Foundation

/// The on-disk form of the watchlist: `{"symbols": ["AAPL", "MSFT"], "version": 1}`.
struct WatchlistDocument: Codable, Sendable, Hashable {
    static let currentVersion = 1

    var version: Int
    var symbols: [String]

    init(symbols: [String]) {
        self.version = Self.currentVersion
        self.symbols = symbols
    }

    /// Pretty-printed with sorted keys and a trailing newline, so the file diffs well and reads well.
    func encoded() -> Data {
        let encoder = JSONEncoder()
        // Symbols such as BRK/B would otherwise be written as BRK\/B.
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding a struct of an Int and Strings cannot fail.
        var data = try! encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The symbols in `data` in canonical form, without duplicates, or why the file is unusable.
    static func symbols(from data: Data) -> Result<[String], CorruptReason> {
        let versionOnly: VersionProbe
        do {
            versionOnly = try JSONDecoder().decode(VersionProbe.self, from: data)
        } catch {
            return .failure(CorruptReason(decodingError: error))
        }
        guard versionOnly.version == currentVersion else {
            return .failure(CorruptReason("unsupported version \(versionOnly.version), expected \(currentVersion)"))
        }
        let document: WatchlistDocument
        do {
            document = try JSONDecoder().decode(WatchlistDocument.self, from: data)
        } catch {
            return .failure(CorruptReason(decodingError: error))
        }
        var seen = Set<String>()
        var symbols: [String] = []
        for raw in document.symbols {
            switch Symbol.normalize(raw) {
            case .success(let symbol):
                if seen.insert(symbol).inserted { symbols.append(symbol) }
            case .failure(let error):
                return .failure(CorruptReason("invalid symbol: \(error)"))
            }
        }
        return .success(symbols)
    }

    /// Decoded first so a file from a newer version is reported as such, not as a shape mismatch.
    private struct VersionProbe: Decodable {
        var version: Int
    }
}
