import Domain

/// What the "add symbols" prompt's text means, given the current watchlist.
public enum AddSymbolsInput: Sendable, Hashable {
    /// Symbols to add (new, normalized, deduplicated) and ones skipped because they are already listed.
    case add(new: [String], alreadyListed: [String])
    /// Nothing to add; the prompt stays open and says why.
    case rejected(reason: String)

    /// Parses `text` (symbols separated by spaces or commas). Any invalid symbol rejects the whole input, so
    /// a typo is fixed in place rather than half the list being added.
    public static func parse(_ text: String, existing: [String]) -> AddSymbolsInput {
        let parts = Symbol.split(text)
        if parts.isEmpty { return .rejected(reason: "type one or more symbols, e.g. AAPL MSFT") }
        var new: [String] = []
        var listed: [String] = []
        let existingSet = Set(existing)
        for part in parts {
            switch Symbol.normalize(part) {
            case .failure(let error):
                return .rejected(reason: error.description)
            case .success(let symbol):
                if existingSet.contains(symbol) {
                    if !listed.contains(symbol) { listed.append(symbol) }
                } else if !new.contains(symbol) {
                    new.append(symbol)
                }
            }
        }
        if new.isEmpty {
            let names = listed.joined(separator: ", ")
            return .rejected(reason: listed.count == 1 ? "\(names) is already in the watchlist" : "\(names) are already in the watchlist")
        }
        return .add(new: new, alreadyListed: listed)
    }
}
