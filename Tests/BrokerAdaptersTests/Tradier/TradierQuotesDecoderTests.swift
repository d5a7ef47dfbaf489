@testable import BrokerAdapters
import Domain
import Foundation
import Networking
import Testing

/// The scanner decoder against the JSONDecoder path it replaces: same quotes, field by field, same
/// unmatched symbols, same errors, on every fixture, on §1.2–1.3's quirks and on seeded mutants.
@Suite struct TradierQuotesDecoderTests {
    /// The old path: Foundation's JSONDecoder through the wire models.
    static func foundation(_ body: Data) -> Result<TradierQuotesEnvelope, BrokerError> {
        Result { () throws(BrokerError) in
            try TradierResponseDecoding.decode(TradierQuotesEnvelope.self, from: HTTPResponse(status: 200, body: body))
        }
    }

    /// The scanner alone: nil when it hands the body to JSONDecoder.
    static func fast(_ body: Data) -> TradierQuotesEnvelope? {
        TradierQuotesDecoder.fastEnvelope(HTTPResponse(status: 200, body: body))
    }

    static func scanner(_ body: Data) -> Result<TradierQuotesEnvelope, BrokerError> {
        Result { () throws(BrokerError) in try TradierQuotesDecoder.decode(HTTPResponse(status: 200, body: body)) }
    }

    /// Every stored property that differs, named, with both values: `==` alone would not say which.
    static func differences(_ old: TradierQuote, _ new: TradierQuote) -> [String] {
        zip(Mirror(reflecting: old).children, Mirror(reflecting: new).children).compactMap { old, new in
            let (before, after) = (String(reflecting: old.value), String(reflecting: new.value))
            return before == after ? nil : "\(old.label ?? "?"): \(before) ≠ \(after)"
        }
    }

    /// What differs between the two paths' answers for one body; empty when they agree.
    static func differences(_ old: Result<TradierQuotesEnvelope, BrokerError>, _ new: Result<TradierQuotesEnvelope, BrokerError>) -> [String] {
        switch (old, new) {
        case (.success(let old), .success(let new)):
            var found: [String] = []
            if old.quoteList.count != new.quoteList.count {
                found.append("quote count \(old.quoteList.count) ≠ \(new.quoteList.count)")
            }
            for (index, (before, after)) in zip(old.quoteList, new.quoteList).enumerated() {
                found += differences(before, after).map { "quote[\(index)].\($0)" }
                if before != after, differences(before, after).isEmpty { found.append("quote[\(index)] differs") }
            }
            if old.unmatchedSymbolList != new.unmatchedSymbolList {
                found.append("unmatched \(old.unmatchedSymbolList) ≠ \(new.unmatchedSymbolList)")
            }
            return found
        case (.failure(let old), .failure(let new)):
            return old == new ? [] : ["error \(old) ≠ \(new)"]
        case (.success, .failure(let new)):
            return ["only the scanner failed: \(new)"]
        case (.failure(let old), .success):
            return ["only JSONDecoder failed: \(old)"]
        }
    }

    static let quoteFixtures = [
        "quotes-one.json", "quotes-two.json", "quotes-unmatched-one.json", "quotes-all-unknown.json", "quotes-nulls.json",
        "quotes-brk.json",
    ]

    /// Every quotes body in Tests/Fixtures/tradier is read by the scanner itself (not handed to
    /// JSONDecoder) and gives JSONDecoder's values.
    @Test func everyQuotesFixtureMatchesJSONDecoderOnTheFastPath() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: TradierFixtures.directory.path)
        #expect(Set(files.filter { $0.hasPrefix("quotes-") }) == Set(Self.quoteFixtures), "a new quotes fixture belongs in this list")
        for file in Self.quoteFixtures {
            let body = try TradierFixtures.data(file)
            let fast = try #require(Self.fast(body), "\(file) left the fast path")
            let old = Self.foundation(body)
            #expect(Self.differences(old, .success(fast)) == [], "\(file)")
            #expect(Self.differences(old, Self.scanner(body)) == [], "\(file)")
            #expect(try old.get().quoteList.isEmpty == (file == "quotes-all-unknown.json"), "\(file) decodes to something")
        }
    }

    /// The quotes routes' other bodies (HTML, XML, plain text, Tradier's error shapes, a cut body) fail
    /// with the same error as before.
    @Test func everyQuotesRouteBodyMatchesJSONDecoder() throws {
        let routes = try FixtureRoutes.load(broker: "tradier").routes.filter { $0.path == "/v1/markets/quotes" }
        #expect(routes.count > 10)
        var bodies = routes.map { ($0.name, $0.body) }
        let two = try TradierFixtures.data("quotes-two.json")
        bodies.append(("truncated", two.prefix(two.count / 2)))
        bodies.append(("empty", Data()))
        for (name, body) in bodies {
            #expect(Self.differences(Self.foundation(body), Self.scanner(body)) == [], "\(name)")
        }
        let html = try #require(routes.first { $0.name == "garbage" })
        #expect(Self.fast(html.body) == nil)
        #expect(Self.scanner(html.body).failure == .badResponse(
            "tradier: unexpected response: not JSON; body starts '<html><head><title>502 Bad Gateway</title></head><body><h1>B…'"))
        let errors = try #require(routes.first { $0.name == "errors-inside-200" })
        #expect(Self.scanner(errors.body).failure == .badResponse("tradier: Invalid Parameter: symbols"))
    }

    /// Bodies the scanner reads itself: reference §1.2–1.3's shapes, string numbers, nulls, unknown keys.
    static let fastBodies = [
        #"{"quotes":null}"#, #"{"quotes":"null"}"#, #"{"quotes":{"quote":"null"}}"#, #"{"quotes":{"quote":null}}"#,
        #"{"quotes":{}}"#, #"{}"#, #" { "quotes" : { "quote" : [ ] } } "#,
        #"{"quotes":{"quote":{"symbol":"AAPL","last":"227.52","volume":"38211905","trade_date":"1731528912441"}}}"#,
        #"{"quotes":{"quote":{"symbol":"AAPL","last":"","bid":"7.50","volume":"","bidsize":"-0","ask":-0.0}}}"#,
        #"{"quotes":{"quote":{"symbol":"AAPL","description":null,"exch":null,"last":0,"change":-0.000123,"close":null}}}"#,
        #"{"quotes":{"quote":{"symbol":"NEWCO","last":null,"trade_date":0,"prevclose":10.5}}}"#,
        #"{"quotes":{"quote":{"symbol":"aapl","last":1}},"unmatched_symbols":{"symbol":"null"}}"#,
        #"{"quotes":{"unmatched_symbols":{"symbol":"ZZZQ"}}}"#, #"{"quotes":{"unmatched_symbols":"null"}}"#,
        #"{"quotes":{"unmatched_symbols":null}}"#, #"{"quotes":{"unmatched_symbols":{"symbol":null}}}"#,
        #"{"quotes":{"unmatched_symbols":{"symbol":["null","ZZZQ"]}}}"#,
        #"{"quotes":{"quote":{"symbol":"SPY240119C00450000","type":"option","last":1.5,"strike":450.0,"greeks":{"delta":0.5,"bid_iv":1e-3,"updated_at":"2024-01-12 15:59:03"},"contract_size":100,"expiration_date":"2024-01-19","ok":[true,false,null,{}]}}}"#,
        #"{"quotes":{"quote":{"symbol":"SAN","description":"Société Générale 📈","last":12.345678901234}}}"#,
        "{\"quotes\":\n\t{\"quote\":[{\"symbol\":\"A\",\"last\":1.25},\r\n {\"symbol\":\"B\",\"last\":89999999999.9999999}]}}\n",
        // Beyond 8 decimals: half to even, as ExactDecimal(parsing:) reads the text JSONDecoder gives it.
        #"{"quotes":{"quote":[{"symbol":"A","last":1.2345678901234567},{"symbol":"B","last":"0.000000025"},{"symbol":"C","last":0.000000035}]}}"#,
        #"{"quotes":{"quote":[{"symbol":"A","volume":999999999999999999,"trade_date":-1731528912441}]},"extra":"x"}"#,
    ]

    /// Bodies that go to JSONDecoder, each for a reason the scanner does not reproduce; the answer is
    /// still JSONDecoder's.
    static let fallbackBodies = [
        #"{"quotes":{"quote":{"symbol":"A\u0041PL","last":1}}}"#, // escape
        #"{"quotes":{"quote":{"symbol":"AAPL","last":2.2e2}}}"#, // exponent
        #"{"quotes":{"quote":{"symbol":"AAPL","last":"1e3"}}}"#, // exponent in a string
        #"{"quotes":{"quote":{"symbol":"AAPL","last":" 227.5"}}}"#, // trimmed by FlexibleExactDecimal
        #"{"quotes":{"quote":{"symbol":"AAPL","bid":"007.50"}}}"#, // leading zeros: ExactDecimal(parsing:) refuses them, an error
        #"{"quotes":{"quote":{"symbol":"AAPL","last":123456789012345}}}"#, // beyond ±90,000,000,000: an error
        #"{"quotes":{"quote":{"symbol":"AAPL","last":"90000000000.00000001"}}}"#, // beyond, as a string: an error
        #"{"quotes":{"quote":{"symbol":"AAPL","volume":2868.0}}}"#, // a whole number with a fraction
        #"{"quotes":{"quote":{"symbol":"AAPL","volume":2868.5}}}"#, // not whole: an error
        #"{"quotes":{"quote":{"symbol":"AAPL","last":1.2345678901234567891}}}"#, // 20 digits
        #"{"quotes":{"quote":{"symbol":"AAPL","trade_date":9223372036854775807}}}"#, // 19 digits
        #"{"quotes":{"quote":{"symbol":"AAPL","last":01}}}"#, // leading zero: not JSON
        #"{"quotes":{"quote":{"symbol":"AAPL","last":1,"last":2}}}"#, // duplicate key
        #"{"quotes":{"quote":{"symbol":"AAPL","last":1,}}}"#, // trailing comma
        #"{"quotes":{"quote":{"last":1}}}"#, // no symbol
        #"{"quotes":{"quote":{"symbol":null}}}"#, #"{"quotes":{"quote":{"symbol":7}}}"#,
        #"{"quotes":{"quote":[null]}}"#, #"{"quotes":{"quote":["null"]}}"#, #"{"quotes":{"quote":"none"}}"#,
        #"{"quotes":{"quote":7}}"#, #"{"quotes":"none"}"#, #"{"quotes":[]}"#, #"[]"#, #""null""#, "null",
        #"{"quotes":{"quote":{"symbol":"AAPL","last":true}}}"#, #"{"quotes":{"quote":{"symbol":"AAPL","exch":1}}}"#,
        #"{"quotes":{"quote":{"symbol":"AAPL","last":"NaN"}}}"#, #"{"quotes":{"quote":{"symbol":"AAPL","last":"inf"}}}"#,
        #"{"quotes":{"quote":{"symbol":"AAPL","last":nul}}}"#, #"{"quotes":{"unmatched_symbols":{"symbol":[1]}}}"#,
        #"{"quotes":{"unmatched_symbols":{"symbol":7}}}"#, #"{"quotes":{"unmatched_symbols":7}}"#,
        #"{"quotes":{"quote":{"symbol":"AAPL","x":[1,2}}}"#, #"{"quotes":{"quote":{"symbol":"AAPL","x":tru}}}"#,
        #"{"quotes":{"quote":{"symbol":"AAPL","x":"a\u0001b"}}}"#, "{\"quotes\":{\"quote\":{\"symbol\":\"A\u{01}\"}}}",
        #"{"quotes":null} x"#, #"{"quotes":null}{}"#, "\u{FEFF}{\"quotes\":null}",
        #"{"errors":{"error":"Invalid Parameter: symbols"}}"#,
    ]

    @Test func quirksMatchJSONDecoder() {
        for body in Self.fastBodies {
            let data = Data(body.utf8)
            #expect(Self.fast(data) != nil, "left the fast path: \(body)")
            #expect(Self.differences(Self.foundation(data), Self.scanner(data)) == [], "\(body)")
        }
        for body in Self.fallbackBodies {
            let data = Data(body.utf8)
            #expect(Self.fast(data) == nil, "stayed on the fast path: \(body)")
            #expect(Self.differences(Self.foundation(data), Self.scanner(data)) == [], "\(body)")
        }
        // Invalid UTF-8 inside a string.
        let invalid = Data(#"{"quotes":{"quote":{"symbol":"A"#.utf8) + Data([0xC3, 0x28]) + Data(#"","last":1}}}"#.utf8)
        #expect(Self.fast(invalid) == nil)
        #expect(Self.differences(Self.foundation(invalid), Self.scanner(invalid)) == [])
    }

    /// The cursor reads keys and strings eight bytes at a time: a quote, an escape, a control byte or a
    /// byte above ASCII at every offset across the first three words reads as JSONDecoder reads it, and
    /// plain text of every length stays on the fast path with its value intact.
    @Test func everyByteOffsetOfAKeyOrAStringMatchesJSONDecoder() throws {
        let specials: [[UInt8]] = [
            Array(#"\n"#.utf8), Array(#"\""#.utf8), Array(#"\u0041"#.utf8), [0x01], [0x1F], [0x7F],
            Array("é".utf8), [0xC3], [0xFF], [0x20],
        ]
        let head = Data(#"{"quotes":{"quote":{"symbol":"AAPL","#.utf8)
        for length in 0...24 {
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            let asString = head + Data(#""description":""#.utf8) + Data(plain) + Data(#"","last":1.5}}}"#.utf8)
            let asKey = head + Data("\"".utf8) + Data(plain) + Data(#"":1,"last":1.5}}}"#.utf8)
            #expect(Self.fast(asString)?.quoteList.first?.description == String(decoding: plain, as: UTF8.self), "length \(length)")
            #expect(Self.fast(asKey)?.quoteList.first?.last == FlexibleExactDecimal(exactDecimal("1.5")), "key of length \(length)")
            for special in specials {
                let text = plain + special + Array("tail".utf8)
                let bodies = [
                    head + Data(#""description":""#.utf8) + Data(text) + Data(#"","last":1.5}}}"#.utf8),
                    head + Data("\"".utf8) + Data(text) + Data(#"":1,"last":1.5}}}"#.utf8),
                ]
                for body in bodies {
                    #expect(Self.differences(Self.foundation(body), Self.scanner(body)) == [], "\(String(decoding: body, as: UTF8.self))")
                }
            }
        }
        // A string with a byte above ASCII in any word stays on the fast path, validated.
        let accented = head + Data(#""description":"Société Générale d'Exemple","last":1.5}}}"#.utf8)
        #expect(Self.fast(accented)?.quoteList.first?.description == "Société Générale d'Exemple")
    }

    /// The cursor reads digits eight at a time: numbers of every length from 1 to 20 digits before the
    /// point and 0 to 11 after it, with leading zeros in either part, as numbers and as strings, in a
    /// decimal field and an integer one, read as JSONDecoder reads them; up to 18 significant digits they
    /// stay on the fast path.
    @Test func everyDigitCountOfANumberMatchesJSONDecoder() throws {
        let head = #"{"quotes":{"quote":{"symbol":"AAPL","#
        var checked = 0
        for integerLength in 1...20 {
            for fractionLength in 0...11 {
                for zeros in [0, 2] {
                    // Digits 1–9 cycling, so a digit read in the wrong place changes the value.
                    let integer = String((0..<integerLength).map { Character(String(($0 + integerLength) % 9 + 1)) })
                    let fraction = String(repeating: "0", count: min(zeros, fractionLength))
                        + String((0..<max(0, fractionLength - zeros)).map { Character(String(($0 * 7) % 9 + 1)) })
                    let number = fractionLength == 0 ? integer : integer + "." + fraction
                    let zeroLed = "0." + String(repeating: "0", count: zeros) + integer
                    for text in [number, zeroLed, "-" + number] {
                        for field in ["last", "volume"] {
                            for spelled in [text, "\"" + text + "\""] {
                                let body = Data((head + #""\#(field)":\#(spelled),"bid":1}}}"#).utf8)
                                #expect(Self.differences(Self.foundation(body), Self.scanner(body)) == [], "\(field): \(spelled)")
                                checked += 1
                            }
                        }
                    }
                    let significant = integerLength + fractionLength
                    if significant <= 18, fractionLength <= 8, integerLength <= 10 {
                        let body = Data((head + #""last":\#(number),"bid":1}}}"#).utf8)
                        #expect(Self.fast(body)?.quoteList.first?.last == FlexibleExactDecimal(exactDecimal(number)), "\(number)")
                    }
                }
            }
        }
        #expect(checked == 20 * 12 * 2 * 3 * 2 * 2)
    }

    /// The eight-byte digit reader on its own: every run length from 0 to 8, ended by each byte next to
    /// the digits' range (0x2F, 0x3A), by the bytes whose +6 carries into the next one (0xFA, 0xFF), and
    /// by a zero, a point and a quote, with digits after the end that must not count.
    @Test func eightDigitsCountsTheRunAndReadsItsValue() {
        for count in 0...8 {
            for end: UInt8 in [0x2F, 0x3A, 0xFA, 0xFF, 0x00, 0x2E, 0x22] {
                var bytes = (0..<count).map { UInt8(ascii: "0") + UInt8(($0 * 7 + count) % 10) }
                if count < 8 { bytes.append(end) }
                while bytes.count < 8 { bytes.append(UInt8(ascii: "9")) }
                let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
                let expected = bytes.prefix(count).reduce(UInt64(0)) { $0 * 10 + UInt64($1 - UInt8(ascii: "0")) }
                let (readCount, value) = TradierQuotesCursor.eightDigits(word)
                #expect(readCount == count, "count \(count), ended by \(end)")
                if count > 0 { #expect(value == expected, "count \(count), ended by \(end)") }
            }
        }
    }

    /// The values the broker reads, spelled out once, so a shared mistake in both paths shows too.
    @Test func stringNumbersEmptyStringsAndNulls() throws {
        let body = #"{"quotes":{"quote":{"symbol":"AAPL","last":"227.52","bid":"","ask":null,"volume":"38211905","trade_date":"1731528912441","prevclose":228.86}}}"#
        let quote = try #require(Self.fast(Data(body.utf8))?.quoteList.first)
        #expect(quote.last == FlexibleExactDecimal(exactDecimal("227.52")))
        #expect(quote.bid == FlexibleExactDecimal(nil))
        #expect(quote.ask == nil)
        #expect(quote.volume == FlexibleInt64(38_211_905))
        #expect(quote.tradeDate == FlexibleInt64(1_731_528_912_441))
        #expect(quote.previousClose == FlexibleExactDecimal(exactDecimal("228.86")))
        #expect(quote.high == nil)
    }

    /// Seeded byte mutations of every quotes body: whatever JSONDecoder makes of a mutant (quotes or an
    /// error), the scanner makes the same. No documented differences remain.
    @Test func mutantsDecodeAsJSONDecoderDecodesThem() async throws {
        var seeds = try Self.quoteFixtures.map { String(decoding: try TradierFixtures.data($0), as: UTF8.self) }
        seeds += Self.fastBodies
        var mismatches: [String] = []
        var oldAccepted = 0
        var fastAccepted = 0
        let run = StreamDecoderMutationRun(seeds: seeds, seed: 0x7AAD_1E25, iterations: 8_000)
        let outcome = await run.run { text in
            let body = Data(text.utf8)
            let old = Self.foundation(body)
            if case .success = old { oldAccepted += 1 }
            if Self.fast(body) != nil { fastAccepted += 1 }
            let found = Self.differences(old, Self.scanner(body))
            if !found.isEmpty { mismatches.append("\(text)\n  \(found.joined(separator: "\n  "))") }
            return try Self.scanner(body).get().quoteList.count
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(3).joined(separator: "\n"))")
        #expect(outcome.decoded + outcome.threw == 8_000)
        // The run exercises both outcomes, and the scanner itself reads most of what JSONDecoder accepts.
        #expect(outcome.decoded == oldAccepted)
        #expect(oldAccepted > 1_000 && outcome.threw > 1_000, "decoded \(oldAccepted), threw \(outcome.threw)")
        #expect(fastAccepted * 10 > oldAccepted * 7, "fast path read \(fastAccepted) of \(oldAccepted)")
    }
}

fileprivate extension Result {
    /// The failure, or nil on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
