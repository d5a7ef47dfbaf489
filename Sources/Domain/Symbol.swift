import TextSafety

/// Watchlist symbols: upper-cased, 1–15 of letters, digits, `.`, `-`, `/`, `^`.
public enum Symbol {
    public static let maxLength = 15
    static let allowedPunctuation: Set<Character> = [".", "-", "/", "^"]

    public enum ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
        case empty
        case tooLong(String)
        case invalidCharacter(String, Character)

        public var description: String {
            switch self {
            case .empty: "empty symbol"
            case .tooLong(let s): "\(VisibleText.escaped(s)) is longer than \(Symbol.maxLength) characters"
            case .invalidCharacter(let s, let c):
                "\(VisibleText.escaped(s)) contains \(c == " " ? "a space" : "'\(VisibleText.escaped(String(c)))'"); use letters, digits, . - / ^"
            }
        }
    }

    /// The canonical (upper-cased) form of `raw`, or why it is not a symbol. Errors quote `raw` as typed,
    /// not upper-cased, so the user recognises it.
    public static func normalize(_ raw: String) -> Result<String, ValidationError> {
        if raw.isEmpty { return .failure(.empty) }
        if let bad = raw.first(where: { !(($0.isASCII && ($0.isLetter || $0.isNumber)) || allowedPunctuation.contains($0)) }) {
            return .failure(.invalidCharacter(raw, bad))
        }
        if raw.count > maxLength { return .failure(.tooLong(raw)) }
        return .success(raw.uppercased())
    }

    /// Splits user input on spaces and commas into its non-empty parts.
    public static func split(_ input: String) -> [String] {
        input.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
    }
}
