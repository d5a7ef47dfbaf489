/// "Did you mean" for misspelled option names and config keys: the closest known name, if it is
/// close enough that the suggestion is more likely help than noise.
enum SpellingSuggestion {
    static func closest(to input: String, among candidates: [String]) -> String? {
        let typed = Array(input.lowercased())
        let limit = min(3, typed.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Levenshtein distance with a rolling row.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                row[j] = min(substitution, previous[j] + 1, row[j - 1] + 1)
            }
            swap(&previous, &row)
        }
        return previous[b.count]
    }
}
