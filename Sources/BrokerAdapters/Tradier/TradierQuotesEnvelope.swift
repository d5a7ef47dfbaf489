/// The body of `GET /v1/markets/quotes` (reference §1.2):
/// `{"quotes":{"quote":{…} | [{…},…], "unmatched_symbols":{"symbol":"ZZZQ" | ["ZZZQ",…]}}}`.
/// `quote` is absent when every symbol is unknown.
public struct TradierQuotesEnvelope: Decodable, Sendable {
    public var quotes: TradierNullable<Quotes>?

    public struct Quotes: Decodable, Sendable {
        public var quote: OneOrMany<TradierQuote>?
        public var unmatchedSymbols: TradierNullable<UnmatchedSymbols>?

        enum CodingKeys: String, CodingKey {
            case quote
            case unmatchedSymbols = "unmatched_symbols"
        }
    }

    public struct UnmatchedSymbols: Decodable, Sendable {
        public var symbol: OneOrMany<String>?
    }

    /// Every quote, in the order sent.
    public var quoteList: [TradierQuote] {
        quotes?.value?.quote?.elements ?? []
    }

    /// Tradier's spelling of every symbol it did not recognise.
    public var unmatchedSymbolList: [String] {
        quotes?.value?.unmatchedSymbols?.value?.symbol?.elements ?? []
    }
}
