import Domain

/// What the "add symbols" prompt's text means, given the current watchlist.
public enum AddSymbolsInput: Sendable, Hashable {
    /// Symbols to add (new, normalized, deduplicated), ones skipped because they are already listed, and
    /// parts that are not symbols, each with why (the prompt keeps those for the user to fix).
    case add(new: [String], alreadyListed: [String], invalid: [Invalid])
    /// Nothing to add; the prompt stays open, keeps the text and says why.
    case rejected(reason: String)

    /// A part of the input that is not a symbol, as typed.
    public struct Invalid: Sendable, Hashable {
        public var text: String
        public var reason: String
    }

    /// Parses `text` (symbols separated by spaces or commas). Valid symbols are added even when other
    /// parts are invalid or already listed: every part is treated alike, and each one that was not added
    /// is named with its reason.
    public static func parse(_ text: String, existing: [String]) -> AddSymbolsInput {
        let parts = Symbol.split(text)
        if parts.isEmpty { return .rejected(reason: "type one or more symbols, e.g. AAPL MSFT") }
        var new: [String] = []
        var listed: [String] = []
        var invalid: [Invalid] = []
        let existingSet = Set(existing)
        for part in parts {
            switch Symbol.normalize(part) {
            case .failure(let error):
                invalid.append(Invalid(text: part, reason: error.description))
            case .success(let symbol):
                if existingSet.contains(symbol) {
                    if !listed.contains(symbol) { listed.append(symbol) }
                } else if !new.contains(symbol) {
                    new.append(symbol)
                }
            }
        }
        if new.isEmpty {
            var reasons = invalid.map(\.reason)
            if !listed.isEmpty {
                let names = listed.joined(separator: ", ")
                reasons.append(listed.count == 1 ? "\(names) is already in the watchlist" : "\(names) are already in the watchlist")
            }
            return .rejected(reason: reasons.joined(separator: " · "))
        }
        return .add(new: new, alreadyListed: listed, invalid: invalid)
    }
}
