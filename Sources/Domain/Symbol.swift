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
            case .tooLong(let s): "\(Symbol.printable(s)) is longer than \(Symbol.maxLength) characters"
            case .invalidCharacter(let s, let c):
                "\(Symbol.printable(s)) contains \(c == " " ? "a space" : "'\(Symbol.printable(String(c)))'"); use letters, digits, . - / ^"
            }
        }
    }

    /// `text` with everything but printable ASCII spelled as `\u{…}`, so user input echoed in a message can
    /// never steer the terminal.
    public static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if (0x20...0x7E).contains(scalar.value) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return out
    }

    /// The canonical (upper-cased) form of `raw`, or why it is not a symbol.
    public static func normalize(_ raw: String) -> Result<String, ValidationError> {
        let upper = raw.uppercased()
        if upper.isEmpty { return .failure(.empty) }
        if let bad = upper.first(where: { !(($0.isASCII && ($0.isLetter || $0.isNumber)) || allowedPunctuation.contains($0)) }) {
            return .failure(.invalidCharacter(upper, bad))
        }
        if upper.count > maxLength { return .failure(.tooLong(upper)) }
        return .success(upper)
    }

    /// Splits user input on spaces and commas into its non-empty parts.
    public static func split(_ input: String) -> [String] {
        input.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
    }
}
