@testable import BrokerAdapters
import Domain
import Foundation
import Networking
import Testing

/// Decoding the byte-exact fixtures into the wire models.
@Suite struct TradierWireModelTests {
    func decode<T: Decodable>(_ type: T.Type, _ file: String) throws -> T {
        try TradierResponseDecoding.decode(T.self, from: HTTPResponse(status: 200, body: try TradierFixtures.data(file)))
    }

    @Test func oneSymbolIsAnObject() throws {
        let envelope = try decode(TradierQuotesEnvelope.self, "quotes-one.json")
        #expect(envelope.quoteList.count == 1)
        let quote = try #require(envelope.quoteList.first)
        #expect(quote.symbol == "AAPL")
        #expect(quote.description == "Apple Inc")
        #expect(quote.exchange == "Q")
        #expect(quote.last?.value == exactDecimal("227.52"))
        #expect(quote.change?.value == exactDecimal("-1.34"))
        #expect(quote.volume?.value == 38_211_905)
        #expect(quote.close?.value == nil)
        #expect(quote.bid?.value == exactDecimal("227.5"))
        #expect(quote.ask?.value == exactDecimal("227.53"))
        #expect(quote.changePercentage?.value == exactDecimal("-0.59"))
        #expect(quote.tradeDate?.value == 1_731_528_912_441)
        #expect(quote.previousClose?.value == exactDecimal("228.86"))
        #expect(quote.week52High?.value == exactDecimal("237.49"))
        #expect(quote.bidSize?.value == 3)
        #expect(quote.askExchange == "P")
        #expect(quote.askDate?.value == 1_731_528_913_000)
        #expect(quote.rootSymbols == "AAPL")
        #expect(envelope.unmatchedSymbolList.isEmpty)
    }

    @Test func severalSymbolsAreAnArray() throws {
        let envelope = try decode(TradierQuotesEnvelope.self, "quotes-two.json")
        #expect(envelope.quoteList.map(\.symbol) == ["AAPL", "MSFT"])
        #expect(envelope.quoteList.map { $0.last?.value } == [exactDecimal("227.52"), exactDecimal("423.1")])
    }

    @Test func unmatchedSymbolsAsStringOrArray() throws {
        let one = try decode(TradierQuotesEnvelope.self, "quotes-unmatched-one.json")
        #expect(one.quoteList.map(\.symbol) == ["AAPL"])
        #expect(one.quoteList.first?.volume == nil)
        #expect(one.unmatchedSymbolList == ["ZZZQ"])

        let none = try decode(TradierQuotesEnvelope.self, "quotes-all-unknown.json")
        #expect(none.quoteList.isEmpty)
        #expect(none.unmatchedSymbolList == ["ZZZQ", "XXYYZ"])
    }

    @Test func nullsBeforeTheFirstTrade() throws {
        let envelope = try decode(TradierQuotesEnvelope.self, "quotes-nulls.json")
        let aapl = try #require(envelope.quoteList.first)
        #expect(aapl.open?.value == nil && aapl.high?.value == nil && aapl.low?.value == nil && aapl.close?.value == nil)
        #expect(aapl.change?.value == nil)
        #expect(aapl.last?.value == exactDecimal("227.52"))
        let untraded = try #require(envelope.quoteList.last)
        #expect(untraded.symbol == "ZVZZT")
        #expect(untraded.last?.value == nil && untraded.bid?.value == nil && untraded.previousClose?.value == nil)
        #expect(untraded.tradeDate?.value == 0)
        #expect(untraded.bidExchange == nil)
    }

    @Test func shareClassKeepsTradiersSpelling() throws {
        let envelope = try decode(TradierQuotesEnvelope.self, "quotes-brk.json")
        #expect(envelope.quoteList.map(\.symbol) == ["BRK/B"])
    }

    /// Reference §1.3: empty collections as `null` or the string `"null"`.
    @Test func emptyQuotesInEveryShape() throws {
        for body in [#"{"quotes":null}"#, #"{"quotes":"null"}"#, #"{"quotes":{"quote":"null"}}"#, #"{"quotes":{}}"#, #"{}"#] {
            let envelope = try TradierResponseDecoding.decode(TradierQuotesEnvelope.self, from: HTTPResponse(status: 200, body: Data(body.utf8)))
            #expect(envelope.quoteList.isEmpty, "\(body)")
            #expect(envelope.unmatchedSymbolList.isEmpty, "\(body)")
        }
    }

    @Test func stringPricesAreAccepted() throws {
        let body = #"{"quotes":{"quote":{"symbol":"AAPL","last":"227.52","volume":"38211905","trade_date":"1731528912441"}}}"#
        let envelope = try TradierResponseDecoding.decode(TradierQuotesEnvelope.self, from: HTTPResponse(status: 200, body: Data(body.utf8)))
        #expect(envelope.quoteList.first?.last?.value == exactDecimal("227.52"))
        #expect(envelope.quoteList.first?.volume?.value == 38_211_905)
    }

    @Test func profileWithOneOrTwoAccounts() throws {
        let one = try decode(TradierProfileEnvelope.self, "profile.json").profile
        #expect(one.id == "id-jdoe42")
        #expect(one.name == "JANE DOE")
        #expect(one.accounts.map(\.accountNumber) == ["6YA05708"])
        let account = try #require(one.accounts.first)
        #expect(account.type == "margin")
        #expect(account.optionLevel == 2)
        #expect(account.dayTrader == false)
        #expect(account.createdAt == Date(timeIntervalSince1970: 1_678_806_131))

        let two = try decode(TradierProfileEnvelope.self, "profile-two-accounts.json").profile
        #expect(two.accounts.map(\.accountNumber) == ["6YA05708", "6YA05709"])
        #expect(two.accounts.map(\.type) == ["margin", "cash"])
    }

    @Test func marginAndCashBalances() throws {
        let margin = try decode(TradierBalancesEnvelope.self, "balances-margin.json").balances
        #expect(margin.accountNumber == "6YA05708")
        #expect(margin.accountType == "margin")
        #expect(margin.totalEquity?.value == exactDecimal("17798.36"))
        #expect(margin.totalCash?.value == exactDecimal("14930.36"))
        #expect(margin.closeProfitLoss?.value == -4_813)
        #expect(margin.margin?.stockBuyingPower?.value == exactDecimal("12893.21"))
        #expect(margin.margin?.optionBuyingPower?.value == exactDecimal("6446.6"))
        #expect(margin.cash == nil)

        let cash = try decode(TradierBalancesEnvelope.self, "balances-cash.json").balances
        #expect(cash.accountType == "cash")
        #expect(cash.cash?.cashAvailable?.value == exactDecimal("3741.06"))
        #expect(cash.cash?.unsettledFunds?.value == exactDecimal("244.14"))
        #expect(cash.margin == nil)
    }

    @Test func pdtBalancesAndLongDecimals() throws {
        let body = #"{"balances":{"account_number":"6YA05710","account_type":"pdt","total_equity":17798.360000000000000000000,"total_cash":"14930.36","pdt":{"fed_call":0,"maintenance_call":0,"option_buying_power":6446.6,"stock_buying_power":51572.84,"stock_short_value":0}}}"#
        let balances = try TradierResponseDecoding.decode(TradierBalancesEnvelope.self, from: HTTPResponse(status: 200, body: Data(body.utf8))).balances
        // The long tail Tradier prints is read from its digits: exactly 17798.36.
        #expect(balances.totalEquity?.value == exactDecimal("17798.36"))
        #expect(balances.totalCash?.value == exactDecimal("14930.36"))
        #expect(balances.patternDayTrader?.stockBuyingPower?.value == exactDecimal("51572.84"))
    }

    @Test func errorBodiesBecomeTheirMessage() throws {
        func error(_ body: Data) -> BrokerError? {
            do {
                _ = try TradierResponseDecoding.decode(TradierQuotesEnvelope.self, from: HTTPResponse(status: 200, body: body))
                return nil
            } catch { return error }
        }
        #expect(error(try TradierFixtures.data("error-400.json")) == .badResponse("tradier: Invalid Parameter: symbols"))
        #expect(error(try TradierFixtures.data("fault.json")) == .badResponse("tradier: Body buffer overflow (protocol.http.TooBigBody)"))
        #expect(error(Data(#"{"errors":{"error":["Invalid Parameter: symbols","Invalid Parameter: greeks"]}}"#.utf8))
            == .badResponse("tradier: Invalid Parameter: symbols; Invalid Parameter: greeks"))
        let long = String(repeating: "z", count: 500)
        let cut = error(Data(#"{"errors":{"error":"\#(long)\u001b[2J"}}"#.utf8))
        guard case .badResponse(let detail) = cut else { Issue.record("\(String(describing: cut))"); return }
        #expect(detail.count < 200)
        #expect(!detail.contains("\u{1B}"))
    }

    @Test func xmlAndHTMLAreBadResponsesWithAnExcerpt() throws {
        let routes = try FixtureRoutes.load(broker: "tradier")
        let xml = try #require(routes.routes.first { $0.name == "xml-without-accept" })
        do {
            _ = try TradierResponseDecoding.decode(TradierQuotesEnvelope.self, from: HTTPResponse(status: 200, body: xml.body))
            Issue.record("XML decoded")
        } catch {
            #expect(error == .badResponse("tradier: unexpected response: not JSON; body starts '<?xml version=\"1.0\" encoding=\"UTF-8\"?><quotes><quote><symbol…'"))
        }
    }
}
