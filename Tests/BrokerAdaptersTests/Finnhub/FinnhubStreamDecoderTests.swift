import BrokerAdapters
import Foundation
import Testing

@Suite struct FinnhubStreamDecoderTests {
    static func milliseconds(_ value: Int64) -> Date {
        EpochTimestamp.milliseconds.date(from: value)
    }

    @Test func decodesTheReferenceTradeMessageEveryTradeInOrder() throws {
        let frame = #"""
            {"type":"trade","data":[{"p":227.52,"s":"AAPL","t":1731528912441,"v":100,"c":["1","12"]},
                                    {"p":227.53,"s":"AAPL","t":1731528912455,"v":35,"c":null}]}
            """#
        #expect(try FinnhubStreamDecoder.decode(frame) == [
            .trade(symbol: "AAPL", price: exactDecimal("227.52"), timestamp: Self.milliseconds(1_731_528_912_441)),
            .trade(symbol: "AAPL", price: exactDecimal("227.53"), timestamp: Self.milliseconds(1_731_528_912_455)),
        ])
    }

    @Test func typeMayFollowData() throws {
        let frame = #"{"data":[{"s":"MSFT","p":423.1,"t":5,"v":0}],"type":"trade"}"#
        #expect(try FinnhubStreamDecoder.decode(frame) == [.trade(symbol: "MSFT", price: exactDecimal("423.1"), timestamp: Self.milliseconds(5))])
    }

    @Test func priceOnlyUpdatesWithZeroVolumeAndMissingConditionsDecode() throws {
        // Some FX and crypto venues send `v: 0` (reference §4.2); `c` may be absent.
        let frame = #"{"type":"trade","data":[{"p":88012.45,"s":"BINANCE:BTCUSDT","t":1731528912441,"v":0}]}"#
        #expect(try FinnhubStreamDecoder.decode(frame) == [
            .trade(symbol: "BINANCE:BTCUSDT", price: exactDecimal("88012.45"), timestamp: Self.milliseconds(1_731_528_912_441)),
        ])
    }

    @Test func numericStringsAreReadAsNumbers() throws {
        let frame = #"{"type":"trade","data":[{"p":"227.52","s":"AAPL","t":"1731528912441","v":"100"}]}"#
        #expect(try FinnhubStreamDecoder.decode(frame) == [
            .trade(symbol: "AAPL", price: exactDecimal("227.52"), timestamp: Self.milliseconds(1_731_528_912_441)),
        ])
    }

    @Test func tradesMissingAFieldOrOfTheWrongTypeAreSkipped() throws {
        let frame = #"""
            {"type":"trade","data":[{"s":"AAPL","t":1},{"p":1,"t":1},{"p":1,"s":"AAPL"},{"p":"x","s":"AAPL","t":1},
            {"p":1,"s":"AAPL","t":1.5},{"p":null,"s":"AAPL","t":1},{"p":1,"s":7,"t":1},{"p":"1\u0030","s":"AAPL","t":1},
            1,"x",null,[],{"p":2,"s":"MSFT","t":2}]}
            """#
        #expect(try FinnhubStreamDecoder.decode(frame) == [.trade(symbol: "MSFT", price: 2, timestamp: Self.milliseconds(2))])
    }

    @Test func keysAreCaseSensitive() throws {
        #expect(try FinnhubStreamDecoder.decode(#"{"type":"trade","data":[{"P":1,"S":"AAPL","T":1}]}"#) == [])
        #expect(try FinnhubStreamDecoder.decode(#"{"Type":"ping"}"#) == [])
    }

    @Test func pingsAndErrors() throws {
        #expect(try FinnhubStreamDecoder.decode(#"{"type":"ping"}"#) == [.ping])
        #expect(try FinnhubStreamDecoder.decode(#"{"msg":"Subscribing to too many symbols","type":"error"}"#)
            == [.error(message: "Subscribing to too many symbols")])
        #expect(try FinnhubStreamDecoder.decode(#"{"type":"error"}"#) == [.error(message: "")])
    }

    @Test func unknownTypesAndValidNonObjectsAreNoEvents() throws {
        #expect(try FinnhubStreamDecoder.decode(#"{"type":"news","data":[{"s":"AAPL","p":1,"t":1}]}"#) == [])
        #expect(try FinnhubStreamDecoder.decode(#"{"data":[{"s":"AAPL","p":1,"t":1}]}"#) == [])
        #expect(try FinnhubStreamDecoder.decode(#"{"type":"trade","data":{"s":"AAPL","p":1,"t":1}}"#) == [])
        #expect(try FinnhubStreamDecoder.decode(" [1,2] ") == [])
        #expect(try FinnhubStreamDecoder.decode("null") == [])
    }

    @Test(arguments: ["", "{", #"{"type":"trade""#, #"{"type":"trade",}"#, #"{"type":"ping"} {}"#, #"{"data":[{"p":1.}]}"#, #"{"data":[1,]}"#, "nope"])
    func nonJSONThrows(text: String) {
        #expect(throws: (any Error).self) { try FinnhubStreamDecoder.decode(text) }
    }

    /// Random byte mutations of real messages: the decoder must never crash, and must decode every mutant
    /// that is still JSON (Foundation's parser is the oracle; the run's own oracle covers arrays).
    @Test func seededRandomMutationsNeverCrashAndValidJSONAlwaysDecodes() async throws {
        let seeds = [
            #"{"type":"trade","data":[{"p":227.52,"s":"AAPL","t":1731528912441,"v":100,"c":["1","12"]},{"p":227.53,"s":"AAPL","t":1731528912455,"v":35,"c":null}]}"#,
            #"{"type":"trade","data":[{"p":"423.1","s":"MSFT","t":"1731528912470","v":0},{"s":"BINANCE:BTCUSDT","p":88012.45,"t":1731528912441,"v":0.0012}]}"#,
            #"{"type":"ping"}"#,
            #"{"type":"error","msg":"Invalid symbol \"ZZZQ\" \u00e9"}"#,
        ]
        var rejectedValidJSON: [String] = []
        let outcome = await StreamDecoderMutationRun(seeds: seeds, seed: 0x5EED_F1, iterations: 8_000).run { text in
            do {
                return try FinnhubStreamDecoder.decode(text).count
            } catch {
                if StrictJSONOracle.isStrictJSON(text) { rejectedValidJSON.append(text) }
                throw error
            }
        }
        #expect(rejectedValidJSON.isEmpty, "valid JSON the decoder threw on: \(rejectedValidJSON.prefix(3))")
        #expect(outcome.rejectedValidArrays.isEmpty)
        #expect(outcome.decoded > 100)
        #expect(outcome.threw > 100)
    }
}
