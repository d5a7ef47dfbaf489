import Foundation

/// The on-disk form of the holdings book, `holdings.json`:
///
///     {
///       "imports" : [
///         {
///           "file" : "/home/me/lots.csv",
///           "importedAt" : "2026-03-05T14:07:09Z",
///           "lots" : [
///             {"broker" : "Fidelity", "date" : "2024-03-15", "fees" : "1", "line" : 2, "price" : "150.25", "quantity" : "10", "symbol" : "AAPL"}
///           ],
///           "sha256" : "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
///         }
///       ],
///       "version" : 1
///     }
///
/// Amounts are strings so they stay exact for any JSON reader. Everything read back is checked as the
/// CSV reader checks it, since the file can be edited by hand.
enum ManualHoldingsDocument {
    static let currentVersion = 1

    enum Problem: Error, Sendable, Hashable {
        case corrupt(reason: String)
        case newerVersion(Int)
    }

    /// Pretty-printed with sorted keys and a trailing newline, so the file diffs and reads well.
    static func encoded(_ book: ManualHoldingsBook) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Strings, integers, whole-second dates and ExactDecimal's own text: encoding cannot fail.
        var data = try! encoder.encode(Version1(version: currentVersion, imports: book.imports))
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The book in `data`, or why it cannot be used.
    static func book(from data: Data) -> Result<ManualHoldingsBook, Problem> {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let version: Int
        do {
            version = try decoder.decode(VersionProbe.self, from: data).version
        } catch {
            return .failure(.corrupt(reason: CorruptReason(decodingError: error).description))
        }
        guard version <= currentVersion else { return .failure(.newerVersion(version)) }
        guard version == currentVersion else {
            return .failure(.corrupt(reason: "unsupported version \(version), expected \(currentVersion)"))
        }
        let document: Version1
        do {
            document = try decoder.decode(Version1.self, from: data)
        } catch {
            return .failure(.corrupt(reason: CorruptReason(decodingError: error).description))
        }
        for (index, record) in document.imports.enumerated() {
            guard record.sha256.count == 64, record.sha256.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
                return .failure(.corrupt(reason: "import \(index + 1) has a bad sha256"))
            }
            for lot in record.lots {
                if let problem = lot.problem {
                    return .failure(.corrupt(reason: "import \(index + 1), the lot from line \(lot.line): \(problem)"))
                }
            }
        }
        let book = ManualHoldingsBook(imports: document.imports)
        do {
            _ = try book.positions()
        } catch {
            return .failure(.corrupt(reason: error.description))
        }
        return .success(book)
    }

    private struct Version1: Codable {
        var version: Int
        var imports: [ManualImport]
    }

    /// Decoded first so a file from a newer version is reported as such, not as a shape mismatch.
    private struct VersionProbe: Decodable {
        var version: Int
    }
}
