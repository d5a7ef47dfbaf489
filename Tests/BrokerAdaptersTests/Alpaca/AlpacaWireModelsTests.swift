import Foundation
import Testing
@testable import BrokerAdapters

@Suite struct AlpacaWireModelsTests {
    func snapshots(_ file: String) throws -> AlpacaSnapshots {
        try JSONDecoder().decode(AlpacaSnapshots.self, from: AlpacaFixtures.data(file))
    }

    func snapshots(json: String) throws -> AlpacaSnapshots {
        try JSONDecoder().decode(AlpacaSnapshots.self, from: Data(json.utf8))
    }

    func snapshot(_ entry: AlpacaSnapshots.Entry?) -> AlpacaSnapshot? {
        if case .snapshot(let snapshot) = entry { snapshot } else { nil }
    }

    @Test func snapshotsAreATopLevelMapWithEveryPart() throws {
        let decoded = try snapshots("snapshots-two.json")
        #expect(Set(decoded.entries.keys) == ["AAPL", "MSFT", "BOGUS"])
        #expect(decoded.message == nil)

        let aapl = try #require(snapshot(decoded.entries["AAPL"]))
        let trade = try #require(aapl.latestTrade)
        #expect(trade.timestamp == "2024-11-13T20:15:02.441Z")
        #expect(trade.exchange == "V")
        #expect(trade.price == exactDecimal("227.52"))
        #expect(trade.size == 100)
        #expect(trade.conditions == ["@"])
        #expect(trade.id == 62700)
        #expect(trade.tape == "C")

        let quote = try #require(aapl.latestQuote)
        #expect(quote.timestamp == "2024-11-13T20:15:03.123456789Z")
        #expect(quote.askExchange == "V")
        #expect(quote.askPrice == exactDecimal("227.53"))
        #expect(quote.askSize == 2)
        #expect(quote.bidPrice == exactDecimal("227.5"))
        #expect(quote.bidSize == 3)
        #expect(quote.conditions == ["R"])

        #expect(aapl.minuteBar?.timestamp == "2024-11-13T20:14:00Z")
        #expect(aapl.minuteBar?.vwap == exactDecimal("227.49"))
        let daily = try #require(aapl.dailyBar)
        #expect([daily.open, daily.high, daily.low, daily.close] == [exactDecimal("228.9"), exactDecimal("229.41"), exactDecimal("226.7"), exactDecimal("227.52")])
        #expect(daily.volume == 812_340)
        #expect(daily.tradeCount == 10_233)
        #expect(aapl.prevDailyBar?.close == exactDecimal("228.86"))
        #expect(aapl.prevDailyBar?.timestamp == "2024-11-12T05:00:00Z")
    }

    @Test func nullSubObjectsAndNullEntries() throws {
        let decoded = try snapshots("snapshots-two.json")
        let msft = try #require(snapshot(decoded.entries["MSFT"]))
        #expect(msft.latestTrade?.price == exactDecimal("423.1"))
        #expect(msft.latestTrade?.conditions == ["@", "I"])
        #expect(msft.latestQuote?.bidPrice == exactDecimal("423.09"))
        #expect(msft.minuteBar == nil)
        #expect(msft.dailyBar == nil)
        #expect(msft.prevDailyBar == nil)

        guard case .null = decoded.entries["BOGUS"] else {
            Issue.record("BOGUS should decode as a null entry, got \(String(describing: decoded.entries["BOGUS"]))")
            return
        }
    }

    @Test func timestampsWithZeroToNineFractionDigits() throws {
        let decoded = try snapshots("snapshots-fractions.json")
        let expected: [(String, trade: Int32, quote: Int32)] = [
            ("SPY", 0, 0), ("QQQ", 120_000_000, 500_000_000), ("IWM", 4_527_000, 980_000_000), ("DIA", 1, 999_999_999),
        ]
        for (symbol, tradeNanos, quoteNanos) in expected {
            let entry = try #require(snapshot(decoded.entries[symbol]), "\(symbol)")
            let trade = try #require(entry.latestTrade?.timestamp.flatMap(RFC3339.instant(from:)), "\(symbol)")
            let quote = try #require(entry.latestQuote?.timestamp.flatMap(RFC3339.instant(from:)), "\(symbol)")
            #expect(trade.nanoseconds == tradeNanos, "\(symbol)")
            #expect(quote.nanoseconds == quoteNanos, "\(symbol)")
            #expect((1_731_528_901...1_731_528_903).contains(trade.secondsSince1970), "\(symbol)")
        }
        // The 18-digit trade ids stay exact (Int64, never through Double).
        #expect(snapshot(decoded.entries["SPY"])?.latestTrade?.id == 52_983_525_029_472)
    }

    @Test func oneMalformedEntryDoesNotSpoilTheOthers() throws {
        let decoded = try snapshots(json: #"{"AAPL":{"latestTrade":{"p":"abc"}},"MSFT":null,"TSLA":[1],"NVDA":{}}"#)
        guard case .undecodable(let reason) = decoded.entries["AAPL"] else {
            Issue.record("AAPL should be undecodable")
            return
        }
        #expect(reason == "unexpected value at latestTrade.p")
        guard case .undecodable(let arrayReason) = decoded.entries["TSLA"] else {
            Issue.record("TSLA should be undecodable")
            return
        }
        #expect(arrayReason == "snapshot is not an object")
        guard case .null = decoded.entries["MSFT"] else {
            Issue.record("MSFT should be null")
            return
        }
        let empty = try #require(snapshot(decoded.entries["NVDA"]))
        #expect(empty.latestTrade == nil && empty.latestQuote == nil && empty.dailyBar == nil)
    }

    @Test func emptyMapAndUnknownFields() throws {
        #expect(try snapshots(json: "{}").entries.isEmpty)
        let extra = try snapshots(json: #"{"AAPL":{"latestTrade":{"t":"2024-11-13T20:15:02Z","p":1.5,"new":true},"futureField":{"x":1}}}"#)
        #expect(snapshot(extra.entries["AAPL"])?.latestTrade?.price == exactDecimal("1.5"))
    }

    @Test func anErrorObjectInsteadOfAMapIsRecognized() throws {
        let decoded = try snapshots(json: #"{"message":"invalid symbol: A B"}"#)
        #expect(decoded.message == "invalid symbol: A B")
        #expect(decoded.entries.isEmpty)
    }

    @Test func aBodyThatIsNotAnObjectDoesNotDecode() {
        #expect(throws: DecodingError.self) { try snapshots(json: "[]") }
        #expect(throws: DecodingError.self) { try snapshots(json: "<html>") }
    }

    @Test func errorBodies() throws {
        let sip = try #require(AlpacaErrorBody.decode(AlpacaFixtures.data("error-403-sip.json")))
        #expect(sip.message == "subscription does not permit querying recent SIP data")
        #expect(sip.code == nil)
        #expect(AlpacaErrorBody.decode(try AlpacaFixtures.data("error-forbidden.json"))?.message == "forbidden.")
        let trading = try #require(AlpacaErrorBody.decode(AlpacaFixtures.data("error-unauthorized.json")))
        #expect(trading.code == 40_110_000)
        #expect(trading.message == "request is not authorized")
        #expect(AlpacaErrorBody.decode(Data("Forbidden".utf8)) == nil)
    }

    @Test func accountMoneyArrivesAsStrings() throws {
        let account = try JSONDecoder().decode(AlpacaAccount.self, from: AlpacaFixtures.data("account.json"))
        #expect(account.id == "904837e3-3b76-47ec-b432-046db621571b")
        #expect(account.accountNumber == "PA3X7NR2QYB5")
        #expect(account.status == "ACTIVE")
        #expect(account.currency == "USD")
        // Exact to the last digit Alpaca printed: the strings go straight into ExactDecimal.
        #expect(account.cash == exactDecimal("131056.816"))
        #expect(account.buyingPower == exactDecimal("262113.632"))
        #expect(account.equity == exactDecimal("131056.816"))
        #expect(account.portfolioValue == exactDecimal("131056.816"))
        #expect(account.displayName == "PA3X7NR2QYB5")
    }

    @Test func accountAcceptsNumbersNullsAndMissingFields() throws {
        let account = try JSONDecoder().decode(
            AlpacaAccount.self,
            from: Data(#"{"id":"abc","account_number":"","cash":12.5,"buying_power":null,"equity":" 7 "}"#.utf8)
        )
        #expect(account.cash == exactDecimal("12.5"))
        #expect(account.buyingPower == nil)
        #expect(account.equity == 7)
        #expect(account.portfolioValue == nil)
        #expect(account.displayName == "abc")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AlpacaAccount.self, from: Data(#"{"id":"abc","cash":"lots"}"#.utf8))
        }
    }
}
