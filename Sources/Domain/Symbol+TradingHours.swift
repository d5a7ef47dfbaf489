extension Symbol {
    /// True for a symbol quoted around the clock rather than in US equity hours: a currency pair such as
    /// `BTC/USD` or `ETH/USDT` (Alpaca's crypto symbols; foreign exchange the same way), whose quote side
    /// after the `/` has three letters or more. A share class written with a slash (`BRK/B`) is a stock,
    /// and so is everything else: stocks, ETFs and indexes (`^GSPC`) follow the exchange's hours.
    public static func tradesAroundTheClock(_ symbol: String) -> Bool {
        guard let slash = symbol.firstIndex(of: "/") else { return false }
        let base = symbol[..<slash]
        let quote = symbol[symbol.index(after: slash)...]
        return base.count >= 2 && quote.count >= 3 && quote.allSatisfy(\.isLetter)
    }
}
