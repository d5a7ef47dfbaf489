import Domain
import Foundation
import TextSafety

/// One named list of symbols, e.g. "Tech" or "Indexes".
public struct NamedWatchlist: Sendable, Hashable, Codable {
    public var name: String
    public var symbols: [String]

    public init(name: String, symbols: [String]) {
        self.name = name
        self.symbols = symbols
    }

    /// The name the one list of a first run (and of a file from before lists existed) gets.
    public static let defaultName = "Watchlist"
    public static let maximumNameLength = 24

    /// `raw` trimmed, or why it cannot name a list: 1–24 printable characters, unique among `existing`
    /// (ignoring case, so "tech" and "Tech" are not both there). `existing` excludes the list being renamed.
    public static func validateName(_ raw: String, existing: [String]) -> Result<String, NameError> {
        let name = raw.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { return .failure(.empty) }
        if name.count > maximumNameLength { return .failure(.tooLong(name)) }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) {
            return .failure(.unprintable(name))
        }
        if existing.contains(where: { $0.lowercased() == name.lowercased() }) { return .failure(.duplicate(name)) }
        return .success(name)
    }

    public enum NameError: Error, Sendable, Hashable, CustomStringConvertible {
        case empty
        case tooLong(String)
        case unprintable(String)
        case duplicate(String)

        public var description: String {
            switch self {
            case .empty: "type a name for the list"
            case .tooLong(let name): "'\(VisibleText.escaped(name))' is longer than \(NamedWatchlist.maximumNameLength) characters"
            case .unprintable(let name): "'\(VisibleText.escaped(name))' holds characters that cannot be shown; use letters, digits, spaces and punctuation"
            case .duplicate(let name): "a list named '\(VisibleText.escaped(name))' exists already; pick another name"
            }
        }
    }
}
