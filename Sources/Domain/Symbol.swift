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
        switch raw.utf8.withContiguousStorageIfAvailable(plainASCII) {
        case .upperCase: return .success(raw)
        case .lowerCase: return .success(raw.uppercased())
        case .other, nil: break
        }
        if raw.isEmpty { return .failure(.empty) }
        if let bad = raw.first(where: { !(($0.isASCII && ($0.isLetter || $0.isNumber)) || allowedPunctuation.contains($0)) }) {
            return .failure(.invalidCharacter(raw, bad))
        }
        if raw.count > maxLength { return .failure(.tooLong(raw)) }
        return .success(raw.uppercased())
    }

    /// What `normalize` makes of a symbol's bytes when they are all ASCII: there the rules above are
    /// exactly these bytes (`Character.isLetter` and `isNumber` hold for A–Z, a–z and 0–9 only, and one
    /// byte is one character), so the answer is the same without a Unicode property lookup and a hashed
    /// set of `Character`s per character, which made checking a symbol cost more than reading the rest
    /// of a paper ledger line (every `placed` line makes an `OrderRequest`). Anything else is left to
    /// the general rules, which also say why a symbol is invalid.
    private enum PlainASCII {
        /// A valid symbol already in upper case: it is its own normal form.
        case upperCase
        /// A valid symbol with lower-case letters.
        case lowerCase
        /// Not a valid symbol, or not all ASCII.
        case other
    }

    private static func plainASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> PlainASCII {
        guard !utf8.isEmpty, utf8.count <= maxLength else { return .other }
        var verdict = PlainASCII.upperCase
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "^"):
                continue
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                verdict = .lowerCase
            default:
                return .other
            }
        }
        return verdict
    }

    /// Splits user input on spaces and commas into its non-empty parts.
    public static func split(_ input: String) -> [String] {
        input.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
    }
}
