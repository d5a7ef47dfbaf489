import Foundation

/// Reads a watchlist file independently of the code under test.
enum WatchlistFileContents {
    struct Document: Decodable, Equatable {
        var version: Int
        var lists: [List]
    }

    struct List: Decodable, Equatable {
        var name: String
        var symbols: [String]
    }

    static func document(at url: URL) throws -> Document {
        try JSONDecoder().decode(Document.self, from: Data(contentsOf: url))
    }

    /// The first list's symbols.
    static func symbols(at url: URL) throws -> [String] {
        try document(at: url).lists.first?.symbols ?? []
    }

    /// A file as the version before named lists wrote it.
    static func write(_ symbols: [String], to url: URL) throws {
        let json = try JSONSerialization.data(withJSONObject: ["version": 1, "symbols": symbols])
        try json.write(to: url)
    }
}
