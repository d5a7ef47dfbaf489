/// The `/` filter: which rows a query keeps and in what order. A row matches when its symbol, its
/// broker's name or its broker's id contains the query (ignoring case), or, failing that, holds the
/// query's characters in order with others between them ("apl" finds AAPL, "gam" Gamma Flaky).
/// Substring matches come first, fuzzy ones after them, each group in the table's order.
public enum RowFilter {
    public enum Match: Int, Sendable, Hashable, Comparable {
        case substring
        case fuzzy

        public static func < (lhs: Match, rhs: Match) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How well `query` matches the best of `fields`, or nil when it matches none. An empty query
    /// (or one of spaces only) matches everything as a substring.
    public static func match(_ query: String, in fields: [String]) -> Match? {
        let needle = Array(query.trimmingSpaces().lowercased())
        guard !needle.isEmpty else { return .substring }
        let haystacks = fields.map { Array($0.lowercased()) }
        if haystacks.contains(where: { contains($0, needle) }) { return .substring }
        if haystacks.contains(where: { isSubsequence(needle, of: $0) }) { return .fuzzy }
        return nil
    }

    /// The slots `query` keeps: substring matches, then fuzzy ones, each in the order given.
    public static func filter(_ slots: [WatchlistRows.Slot], by query: String) -> [WatchlistRows.Slot] {
        var substring: [WatchlistRows.Slot] = []
        var fuzzy: [WatchlistRows.Slot] = []
        for slot in slots {
            switch match(query, in: [slot.key.symbol, slot.branding.name, slot.branding.id]) {
            case .substring: substring.append(slot)
            case .fuzzy: fuzzy.append(slot)
            case nil: break
            }
        }
        return substring + fuzzy
    }

    private static func contains(_ haystack: [Character], _ needle: [Character]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    private static func isSubsequence(_ needle: [Character], of haystack: [Character]) -> Bool {
        var next = needle.startIndex
        for character in haystack where next < needle.endIndex && character == needle[next] {
            next += 1
        }
        return next == needle.endIndex
    }
}

private extension String {
    func trimmingSpaces() -> Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = lastIndex { $0 != " " }.map(index(after:)) ?? start
        return self[start..<max(start, end)]
    }
}
