import Domain
import TextSafety

/// The symbols of one call as the user wrote them, grouped by canonical symbol: "aapl" and "AAPL" are one
/// request, answered under both spellings. Canonical symbols keep their first-seen order; input that is
/// not a symbol at all is kept apart, to be answered `.unknownSymbol` without asking the broker.
struct SymbolSpellings {
    /// Each canonical symbol once, in the order the user first wrote it.
    private(set) var canonicalOrder: [String] = []
    /// Input that `Symbol.normalize` rejects, each with its row's failure (the input escaped for display).
    private(set) var rejected: [String: Result<CommonQuote, BrokerError>] = [:]
    private var spellingsByCanonical: [String: [String]] = [:]

    init(_ symbols: [String]) {
        for symbol in symbols where rejected[symbol] == nil {
            switch Symbol.normalize(symbol) {
            case .failure:
                rejected[symbol] = .failure(.unknownSymbol(VisibleText.escaped(symbol)))
            case .success(let canonical):
                if spellingsByCanonical[canonical] == nil { canonicalOrder.append(canonical) }
                if spellingsByCanonical[canonical]?.contains(symbol) != true {
                    spellingsByCanonical[canonical, default: []].append(symbol)
                }
            }
        }
    }

    /// Every distinct spelling of `canonical` the user wrote, in first-seen order.
    func spellings(of canonical: String) -> [String] {
        spellingsByCanonical[canonical] ?? []
    }
}
