import Foundation

/// Reads a watchlist file independently of the code under test.
enum WatchlistFileContents {
    struct Document: Decodable, Equatable {
        var version: Int
        var symbols: [String]
    }

    static func document(at url: URL) throws -> Document {
        try JSONDecoder().decode(Document.self, from: Data(contentsOf: url))
    }

    static func symbols(at url: URL) throws -> [String] {
        try document(at: url).symbols
    }

    static func write(_ symbols: [String], to url: URL) throws {
        let json = try JSONSerialization.data(withJSONObject: ["version": 1, "symbols": symbols])
        try json.write(to: url)
    }
}
