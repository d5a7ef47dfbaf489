/// Finds which of our symbols a broker's free-text error names, for stream errors that name a symbol
/// without a field for it (Tradier's `{"error":"1234 is not a valid symbol"}`, Finnhub's error `msg`).
enum SymbolMention {
    /// The longest of `symbols` that appears in `text` as a whole word, not inside a longer symbol. A
    /// word's trailing full stop is also tried without it ("Invalid symbol ZZZQ.").
    static func find(in text: String, among symbols: some Sequence<String>) -> String? {
        let isSymbolCharacter: (Character) -> Bool = { $0.isLetter || $0.isNumber || ".-/^:".contains($0) }
        var words = Set(text.split(whereSeparator: { !isSymbolCharacter($0) }).map(String.init))
        words.formUnion(words.filter { $0.hasSuffix(".") }.map { String($0.dropLast()) })
        return symbols.filter(words.contains).max { $0.count < $1.count }
    }
}
