import Domain
import Foundation
import Locking
import Testing

@Suite struct SymbolTests {
    @Test(arguments: ["aapl", "BRK.B", "BRK/B", "^GSPC", "RDS-A", "X", "ABCDEFGHIJKLMNO"])
    func acceptsValidSymbols(_ raw: String) throws {
        #expect(try Symbol.normalize(raw).get() == raw.uppercased())
    }

    @Test func rejectsEmptyTooLongAndBadCharacters() {
        #expect(Symbol.normalize("") == .failure(.empty))
        #expect(Symbol.normalize("ABCDEFGHIJKLMNOP") == .failure(.tooLong("ABCDEFGHIJKLMNOP")))
        #expect(Symbol.normalize("ZZ$") == .failure(.invalidCharacter("ZZ$", "$")))
        #expect(Symbol.normalize("ÄPL") == .failure(.invalidCharacter("ÄPL", "Ä")))
    }

    /// The rules as written with `Character`s, the way `normalize` judges text that is not plain ASCII;
    /// its ASCII path must agree with them on every ASCII character and length.
    private static func byCharacterRules(_ raw: String) -> Result<String, Symbol.ValidationError> {
        if raw.isEmpty { return .failure(.empty) }
        let punctuation: Set<Character> = [".", "-", "/", "^"]
        if let bad = raw.first(where: { !(($0.isASCII && ($0.isLetter || $0.isNumber)) || punctuation.contains($0)) }) {
            return .failure(.invalidCharacter(raw, bad))
        }
        if raw.count > Symbol.maxLength { return .failure(.tooLong(raw)) }
        return .success(raw.uppercased())
    }

    @Test func readsEveryASCIICharacterAsTheCharacterRulesDo() {
        let ascii = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        for character in ascii {
            for raw in [character, "a" + character, character + "Z9", "BRK" + character + "b", String(repeating: "q", count: 14) + character] {
                #expect(Symbol.normalize(raw) == Self.byCharacterRules(raw), "\(raw.debugDescription)")
            }
        }
        for length in 1...17 {
            for raw in [String(repeating: "A", count: length), String(repeating: "z", count: length), String(repeating: "^", count: length)] {
                #expect(Symbol.normalize(raw) == Self.byCharacterRules(raw), "\(raw.debugDescription)")
            }
        }
        #expect(Symbol.normalize("A\r\nB") == Self.byCharacterRules("A\r\nB"))
    }

    @Test func explainsInvalidCharactersReadably() {
        #expect(Symbol.ValidationError.invalidCharacter("ZZ$", "$").description == "ZZ$ contains '$'; use letters, digits, . - / ^")
        #expect(Symbol.ValidationError.invalidCharacter("A\u{1B}", "\u{1B}").description.contains("\\u{1b}"))
    }

    @Test func splitsOnSpacesAndCommas() {
        #expect(Symbol.split(" aapl,msft  nvda,, ") == ["aapl", "msft", "nvda"])
    }
}

@Suite struct QuoteTests {
    @Test func changeNeedsAPreviousClose() {
        let now = Date(timeIntervalSince1970: 0)
        let quote = CommonQuote(symbol: "AAPL", last: 110, timestamp: now, previousClose: 100)
        #expect(quote.change == 10)
        #expect(quote.changePercent == 10)
        #expect(CommonQuote(symbol: "AAPL", last: 1, timestamp: now).change == nil)
        #expect(CommonQuote(symbol: "AAPL", last: 1, timestamp: now, previousClose: 0).changePercent == nil)
    }

    /// The change is the exact difference of the broker's prices, where `Double` would give
    /// 0.30000000000000004 for 0.4 − 0.1.
    @Test func changeIsExact() throws {
        let quote = CommonQuote(symbol: "X", last: try decimal("0.4"), timestamp: .distantPast, previousClose: try decimal("0.1"))
        #expect(quote.change == (try decimal("0.3")))
        #expect(quote.changePercent == 300)
    }

    /// Cut toward zero at 8 decimals, so rounding to 2 for the screen gives the exact quotient's digits:
    /// 189.84 against 187.50 is +1.248 %, and −2 against 3 is −66.666666666… %.
    @Test(arguments: [
        ("189.84", "187.5", "1.248"), ("1", "3", "-66.66666666"), ("2", "3", "-33.33333333"), ("4", "3", "33.33333333"),
        ("187.5", "189.84", "-1.23261694"), ("100.005", "100", "0.005"),
    ])
    func changePercentIsCutAtTheEighthDecimal(last: String, close: String, percent: String) throws {
        let quote = CommonQuote(symbol: "X", last: try decimal(last), timestamp: .distantPast, previousClose: try decimal(close))
        #expect(quote.changePercent == (try decimal(percent)))
    }

    @Test func keysSortBySymbolThenBrandAndPrintAsRowIDs() {
        let keys = [QuoteKey(brandID: "b", symbol: "AAPL"), QuoteKey(brandID: "a", symbol: "MSFT"), QuoteKey(brandID: "a", symbol: "AAPL")]
        #expect(keys.sorted().map(\.id) == ["a:AAPL", "b:AAPL", "a:MSFT"])
    }

    @Test func keysAreEqualAndHashAlikeByTheirStringsAndPersistOnlyThem() throws {
        let key = QuoteKey(brandID: "alpaca", symbol: "AAPL")
        // Built from new strings, not copies, so the cached hash is computed afresh.
        let same = QuoteKey(brandID: String("alpa" + "ca"), symbol: String("AA" + "PL"))
        #expect(key == same && key.hashValue == same.hashValue)
        #expect(key != QuoteKey(brandID: "alpaca", symbol: "AAPX"))
        #expect(key != QuoteKey(brandID: "AAPL", symbol: "alpaca"))
        #expect(Set([key, same, QuoteKey(brandID: "polygon", symbol: "AAPL")]).count == 2)
        let json = try JSONEncoder().encode(key)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: String])
        #expect(object == ["brandID": "alpaca", "symbol": "AAPL"])
        let decoded = try JSONDecoder().decode(QuoteKey.self, from: json)
        #expect(decoded == key && [decoded: 1][key] == 1)
    }

    /// A table's lookups hash a key with the table's seed: equal keys alike under any seed, and one key
    /// differently under different seeds (what the seed is for). Thousands of keys spread over a table's
    /// buckets as the strings' own hashes do: no bucket of 64 gets more than twice its share.
    @Test func keysHashAlikeUnderASeedAndSpreadOverATable() {
        let key = QuoteKey(brandID: "alpaca", symbol: "AAPL")
        let same = QuoteKey(brandID: String("alpa" + "ca"), symbol: String("AA" + "PL"))
        #expect(key._rawHashValue(seed: 7) == same._rawHashValue(seed: 7))
        #expect(key._rawHashValue(seed: 7) != key._rawHashValue(seed: 8))
        let keys = (0..<4096).map { QuoteKey(brandID: ["alpaca", "polygon", "tradier", "finnhub"][$0 % 4], symbol: "S\($0 / 4)") }
        var buckets = [Int](repeating: 0, count: 64)
        for key in keys { buckets[key._rawHashValue(seed: 12345) & 63] += 1 }
        #expect(buckets.max()! <= 2 * keys.count / 64, "\(buckets)")
        #expect(Set(keys).count == keys.count && Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }).count == keys.count)
    }

    /// A key made from a broker whose half of the hash was done once is the same key, hash included, as
    /// one made from the two strings: the hub makes one kind, the app and the tests the other.
    @Test func aKeyMadeFromABrandIsTheKeyOfItsTwoStrings() {
        let brand = QuoteKey.Brand("tradier")
        for symbol in ["AAPL", "BRK/B", "^GSPC", "A-VERY-LONG-SYMBOL-NAME-PAST-SMALL-STRINGS"] {
            let fromBrand = QuoteKey(brand: brand, symbol: symbol)
            let fromStrings = QuoteKey(brandID: "tradier", symbol: symbol)
            #expect(fromBrand == fromStrings && fromBrand.hashValue == fromStrings.hashValue, "\(symbol)")
            #expect(fromBrand.brandID == "tradier" && fromBrand.symbol == symbol)
            #expect([fromStrings: 1][fromBrand] == 1)
        }
        #expect(QuoteKey(brand: brand, symbol: "AAPL") != QuoteKey(brand: QuoteKey.Brand("alpaca"), symbol: "AAPL"))
    }

    @Test func brokerErrorsSayWhatHappenedAndWhetherRetryingHelps() {
        #expect(BrokerError.unauthorized(hint: "check TRADIER_TOKEN").description == "unauthorized, check TRADIER_TOKEN")
        #expect(BrokerError.rateLimited(retryAfter: 2.5).description == "rate limited, retry in 3s")
        #expect(BrokerError.unknownSymbol("ZZZZ").shortReason == "unknown symbol")
        #expect(BrokerError.unauthorized(hint: "").isPermanent)
        #expect(!BrokerError.network("reset").isPermanent)
    }
}

@Suite struct MarketUpdatesTests {
    private final class ScriptedSource: MarketUpdateSource {
        private let script: Locked<[MarketUpdate]>
        init(_ updates: [MarketUpdate]) { script = Locked(updates) }
        func nextUpdate(isolation actor: isolated (any Actor)?) async -> MarketUpdate? {
            script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
    }

    private static let first = MarketUpdate(brokerStates: ["alpha": .live])
    private static let second = MarketUpdate(quotes: [
        QuoteKey(brandID: "alpha", symbol: "AAPL"): CommonQuote(symbol: "AAPL", last: 1, timestamp: Date(timeIntervalSince1970: 0)),
    ])

    @Test func aSourceIsReadInOrderUntilItEnds() async {
        var seen: [MarketUpdate] = []
        for await update in MarketUpdates(source: ScriptedSource([Self.first, Self.second])) { seen.append(update) }
        #expect(seen == [Self.first, Self.second])
    }

    @Test func anAsyncStreamStillWorksForSimpleFeeds() async {
        let (stream, continuation) = AsyncStream<MarketUpdate>.makeStream()
        continuation.yield(Self.first)
        continuation.yield(Self.second)
        continuation.finish()
        var iterator = MarketUpdates(stream).makeAsyncIterator()
        #expect(await iterator.next() == Self.first)
        #expect(await iterator.next() == Self.second)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }
}
