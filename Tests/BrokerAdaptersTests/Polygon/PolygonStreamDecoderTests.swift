import BrokerAdapters
import Foundation
import Testing

@Suite struct PolygonStreamDecoderTests {
    static func milliseconds(_ value: Int64) -> Date {
        EpochTimestamp.milliseconds.date(from: value)
    }

    @Test func decodesTheReferenceFrameAndSkipsAggregates() throws {
        let frame = #"""
            [{"ev":"T","sym":"AAPL","i":"52983","x":4,"p":227.52,"s":100,"c":[12,37],"t":1731528912441,"q":1190234,"z":3},
             {"ev":"Q","sym":"MSFT","bx":19,"bp":423.09,"bs":2,"ax":11,"ap":423.12,"as":1,"c":1,"i":[604],"t":1731528912450,"q":55021934,"z":3},
             {"ev":"AM","sym":"AAPL","v":61234,"av":38211905,"op":228.9,"vw":227.4911,"o":227.6,"c":227.52,"h":227.71,"l":227.35,"a":227.9312,"z":88,"s":1731528840000,"e":1731528900000}]
            """#
        #expect(try PolygonStreamDecoder.decode(frame) == [
            .trade(symbol: "AAPL", price: exactDecimal("227.52"), timestamp: Self.milliseconds(1_731_528_912_441)),
            .quote(symbol: "MSFT", bidPrice: exactDecimal("423.09"), askPrice: exactDecimal("423.12"), timestamp: Self.milliseconds(1_731_528_912_450)),
        ])
    }

    @Test func decodesStatuses() throws {
        let frame = #"[{"ev":"status","status":"connected","message":"Connected Successfully"},{"ev":"status","status":"success"}]"#
        #expect(try PolygonStreamDecoder.decode(frame) == [
            .status(status: "connected", message: "Connected Successfully"),
            .status(status: "success", message: ""),
        ])
    }

    @Test func fieldOrderWhitespaceAndEscapesDoNotMatter() throws {
        let frame = "[ {\"t\" : 5 ,\n\"p\":\t1.5e2, \"sym\":\"BRK\\/B\\u00e9\", \"ev\" :\"T\"} ]\n"
        #expect(try PolygonStreamDecoder.decode(frame) == [.trade(symbol: "BRK/Bé", price: 150, timestamp: Self.milliseconds(5))])
    }

    @Test func keysAreCaseSensitive() throws {
        // `P` is not `p`, `T` (a field) is not `t`: this trade has no price or timestamp.
        #expect(try PolygonStreamDecoder.decode(#"[{"ev":"T","sym":"AAPL","P":227.5,"T":1}]"#) == [])
    }

    @Test func incompleteEventsUnknownTypesAndNonObjectsAreSkipped() throws {
        let frame = #"[{"ev":"T","sym":"AAPL","t":1},{"ev":"Q","bp":1,"ap":2,"t":1},{"ev":"XQ","sym":"AAPL","p":1,"t":1},1,"x",null,[],{"ev":"T","sym":"AAPL","p":"227.5","t":1},{"ev":"T","sym":"MSFT","p":1,"t":2}]"#
        #expect(try PolygonStreamDecoder.decode(frame) == [.trade(symbol: "MSFT", price: 1, timestamp: Self.milliseconds(2))])
    }

    @Test func aQuoteMayLackOneSide() throws {
        #expect(try PolygonStreamDecoder.decode(#"[{"ev":"Q","sym":"AAPL","bp":227.5,"ap":null,"t":1}]"#)
            == [.quote(symbol: "AAPL", bidPrice: exactDecimal("227.5"), askPrice: nil, timestamp: Self.milliseconds(1))])
    }

    /// Prices are the wire's digits, exactly: no binary rounding (0.1 is 0.1), beyond the 8th decimal
    /// half to even, exponents read too.
    @Test(arguments: [
        ("0.1", "0.1"), ("227.52", "227.52"), ("0.0001", "0.0001"), ("123456789.123456", "123456789.123456"), ("1e-7", "0.0000001"),
        ("-3.25", "-3.25"), ("227.520000000000000000", "227.52"), ("0.123456785", "0.12345678"), ("2.5E2", "250"),
        ("89999999999.99999999", "89999999999.99999999"), ("0", "0"),
    ])
    func pricesAreTheWiresDigitsExactly(wire: String, price: String) throws {
        let events = try PolygonStreamDecoder.decode(#"[{"ev":"T","sym":"X","p":\#(wire),"t":1}]"#)
        #expect(events == [.trade(symbol: "X", price: exactDecimal(price), timestamp: Self.milliseconds(1))])
    }

    /// A price beyond ±90,000,000,000 cannot be held exactly: the trade is left out, like one without a price.
    @Test(arguments: ["12345678901234567890.5", "90000000000.00000001", "1e11", "-1e300"])
    func pricesBeyondTheRangeLeaveTheTradeOut(wire: String) throws {
        #expect(try PolygonStreamDecoder.decode(#"[{"ev":"T","sym":"X","p":\#(wire),"t":1}]"#) == [])
    }

    @Test(arguments: ["", "{}", "[", "[{", #"[{"ev":"T""#, #"[{"ev":"T",}]"#, "[1,]", "[] []", #"[{"p":1.}]"#, #"[{"p":-}]"#, #"["\"]"#, "nope"])
    func nonFramesThrow(text: String) {
        #expect(throws: (any Error).self) { try PolygonStreamDecoder.decode(text) }
    }

    @Test func anEmptyArrayIsNoEvents() throws {
        #expect(try PolygonStreamDecoder.decode(" [ ] ") == [])
    }

    /// Random byte mutations of real frames: the decoder must never crash, and must accept every mutant
    /// that is still a JSON array (Foundation's parser is the oracle).
    @Test func seededRandomMutationsNeverCrashAndValidArraysAlwaysDecode() async throws {
        let seeds = [
            #"[{"ev":"status","status":"connected","message":"Connected Successfully"}]"#,
            #"[{"ev":"T","sym":"AAPL","i":"52983","x":4,"p":227.52,"s":100,"c":[12,37],"t":1731528912441,"q":1190234,"z":3},{"ev":"Q","sym":"MSFT","bx":19,"bp":423.09,"bs":2,"ax":11,"ap":423.12,"as":1,"c":1,"i":[604],"t":1731528912450,"q":55021934,"z":3}]"#,
            #"[{"ev":"AM","sym":"AAPL","v":61234,"av":38211905,"op":228.9,"vw":227.4911,"o":227.6,"c":227.52,"h":227.71,"l":227.35,"a":227.9312,"z":88,"s":1731528840000,"e":1731528900000,"otc":true,"x":"a\"b\\u00e9"}]"#,
        ]
        let outcome = await StreamDecoderMutationRun(seeds: seeds, seed: 0x5EED_0001, iterations: 8_000).run { text in
            try PolygonStreamDecoder.decode(text).count
        }
        #expect(outcome.rejectedValidArrays.isEmpty, "valid JSON arrays the decoder threw on: \(outcome.rejectedValidArrays.prefix(3))")
        // The run exercised both paths: some mutants are still frames, many are not.
        #expect(outcome.decoded > 100)
        #expect(outcome.threw > 100)
    }
}
