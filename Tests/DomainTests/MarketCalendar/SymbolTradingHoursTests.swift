import Domain
import Testing

@Suite struct SymbolTradingHoursTests {
    @Test(arguments: ["BTC/USD", "ETH/USDT", "DOGE/USDC", "EUR/USD", "ETH/BTC"])
    func currencyPairsTradeAroundTheClock(_ symbol: String) {
        #expect(Symbol.tradesAroundTheClock(symbol))
    }

    @Test(arguments: ["AAPL", "BRK/B", "BRK.B", "RDS-A", "^GSPC", "SPY", "/USD", "X/"])
    func stocksAndIndexesKeepExchangeHours(_ symbol: String) {
        #expect(!Symbol.tradesAroundTheClock(symbol))
    }
}
