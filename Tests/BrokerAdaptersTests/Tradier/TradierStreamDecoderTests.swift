import BrokerAdapters
import Foundation
import Testing

@Suite struct TradierStreamDecoderTests {
    static func milliseconds(_ value: Int64) -> Date {
        EpochTimestamp.milliseconds.date(from: value)
    }

    /// The reference's event shapes, each alone in a frame with the trailing `\n` of `linebreak: true`.
    @Test func decodesTheReferenceEventsWithTheirMixedTypes() throws {
        let quote = #"{"type":"quote","symbol":"AAPL","bid":227.5,"bidsz":3,"bidexch":"Q","biddate":"1731528913000","ask":227.53,"asksz":2,"askexch":"P","askdate":"1731528913000"}"# + "\n"
        #expect(try TradierStreamDecoder.decode(quote) == [
            .quote(symbol: "AAPL", bidPrice: exactDecimal("227.5"), askPrice: exactDecimal("227.53"), timestamp: Self.milliseconds(1_731_528_913_000)),
        ])
        let trade = #"{"type":"trade","symbol":"AAPL","exch":"Q","price":"227.52","size":"200","cvol":"38211905","date":"1731528912441","last":"227.52"}"# + "\n"
        #expect(try TradierStreamDecoder.decode(trade) == [
            .trade(symbol: "AAPL", price: exactDecimal("227.52"), cumulativeVolume: 38_211_905, timestamp: Self.milliseconds(1_731_528_912_441)),
        ])
        let summary = #"{"type":"summary","symbol":"AAPL","open":"228.9","high":"229.41","low":"226.7","prevClose":"228.86"}"# + "\n"
        #expect(try TradierStreamDecoder.decode(summary) == [.summary(symbol: "AAPL", previousClose: exactDecimal("228.86"))])
        let tradex = #"{"type":"tradex","symbol":"AAPL","exch":"Q","price":"227.52","size":"200","cvol":"38211905","date":"1731528912441","last":"227.52"}"# + "\n"
        #expect(try TradierStreamDecoder.decode(tradex) == [
            .trade(symbol: "AAPL", price: exactDecimal("227.52"), cumulativeVolume: 38_211_905, timestamp: Self.milliseconds(1_731_528_912_441)),
        ])
        let timesale = #"{"type":"timesale","symbol":"AAPL","exch":"Q","bid":"227.5","ask":"227.53","last":"227.52","size":"200","date":"1731528912441","seq":48211,"flag":"","cancel":false,"correction":false,"session":"normal"}"# + "\n"
        #expect(try TradierStreamDecoder.decode(timesale) == [])
    }

    @Test func numbersAndNumericStringsAreInterchangeable() throws {
        let frame = #"{"type":"quote","symbol":"MSFT","bid":"423.08","ask":423.12,"biddate":1731528911000,"askdate":"1731528911873"}"#
        #expect(try TradierStreamDecoder.decode(frame) == [
            .quote(symbol: "MSFT", bidPrice: exactDecimal("423.08"), askPrice: exactDecimal("423.12"), timestamp: Self.milliseconds(1_731_528_911_873)),
        ])
        let trade = #"{"type":"trade","symbol":"MSFT","price":423.1,"cvol":17892345,"date":1731528911873}"#
        #expect(try TradierStreamDecoder.decode(trade) == [
            .trade(symbol: "MSFT", price: exactDecimal("423.1"), cumulativeVolume: 17_892_345, timestamp: Self.milliseconds(1_731_528_911_873)),
        ])
    }

    @Test func missingFieldsAreNilOrSkipTheEvent() throws {
        let frame = """
            {"type":"trade","symbol":"AAPL","last":"227.5"}
            {"type":"trade","symbol":"AAPL","price":"","cvol":"x","date":"0"}
            {"type":"trade","price":"1","date":"1"}
            {"type":"quote","symbol":"AAPL","bid":227.5}
            {"type":"quote","symbol":"AAPL","ask":"n/a","askdate":"-5"}
            {"type":"quote","bid":1,"ask":2}
            {"type":"summary","symbol":"AAPL","open":"228.9"}
            {"symbol":"AAPL","price":"1"}

            """
        #expect(try TradierStreamDecoder.decode(frame) == [
            // `last` stands in for a missing price; a missing date is nil, as is 0.
            .trade(symbol: "AAPL", price: exactDecimal("227.5"), cumulativeVolume: nil, timestamp: nil),
            .quote(symbol: "AAPL", bidPrice: exactDecimal("227.5"), askPrice: nil, timestamp: nil),
            .quote(symbol: "AAPL", bidPrice: nil, askPrice: nil, timestamp: nil),
        ])
    }

    @Test func severalObjectsInOneFrameAreReadInOrder() throws {
        let frame = "{\"type\":\"trade\",\"symbol\":\"AAPL\",\"price\":\"1\",\"date\":\"1\"}\n{\"type\":\"trade\",\"symbol\":\"MSFT\",\"price\":\"2\",\"date\":\"2\"}\n"
        #expect(try TradierStreamDecoder.decode(frame) == [
            .trade(symbol: "AAPL", price: 1, cumulativeVolume: nil, timestamp: Self.milliseconds(1)),
            .trade(symbol: "MSFT", price: 2, cumulativeVolume: nil, timestamp: Self.milliseconds(2)),
        ])
    }

    @Test func errorFrames() throws {
        #expect(try TradierStreamDecoder.decode(#"{"error":"1234 is not a valid symbol"}"#) == [.error(message: "1234 is not a valid symbol")])
        #expect(try TradierStreamDecoder.decode("{\"error\":\"session not found\"}\n") == [.error(message: "session not found")])
        #expect(try TradierStreamDecoder.decode(#"{"error":null}"#) == [])
    }

    @Test func keysAreCaseSensitive() throws {
        // The stream's `prevClose` is camelCase; REST's `prevclose` spelling is not it.
        #expect(try TradierStreamDecoder.decode(#"{"type":"summary","symbol":"AAPL","prevclose":"228.86"}"#) == [])
        #expect(try TradierStreamDecoder.decode(#"{"Type":"trade","symbol":"AAPL","price":"1"}"#) == [])
    }

    @Test func blankFramesAndValidNonObjectsAreNoEvents() throws {
        #expect(try TradierStreamDecoder.decode("") == [])
        #expect(try TradierStreamDecoder.decode("\n") == [])
        #expect(try TradierStreamDecoder.decode("[1] \"x\" 2 null true") == [])
    }

    @Test(arguments: ["{", #"{"type":"trade""#, #"{"type":"trade",}"#, #"{"price":1.}"#, #"{"price":-}"#, "nope", #"{"error":"x"} nope"#, "\"open"])
    func nonJSONThrows(text: String) {
        #expect(throws: (any Error).self) { try TradierStreamDecoder.decode(text) }
    }

    /// Random byte mutations of real frames: the decoder must never crash, and must decode every mutant
    /// that is still JSON (Foundation's parser is the oracle).
    @Test func seededRandomMutationsNeverCrashAndValidJSONAlwaysDecodes() async throws {
        let seeds = [
            #"{"type":"quote","symbol":"AAPL","bid":227.5,"bidsz":3,"bidexch":"Q","biddate":"1731528913000","ask":227.53,"asksz":2,"askexch":"P","askdate":"1731528913000"}"# + "\n",
            #"{"type":"trade","symbol":"AAPL","exch":"Q","price":"227.52","size":"200","cvol":"38211905","date":"1731528912441","last":"227.52"}"# + "\n",
            #"{"type":"summary","symbol":"BRK/B","open":"228.9","high":"229.41","low":"226.7","prevClose":"228.86"}"# + "\n",
            #"{"type":"timesale","symbol":"AAPL","exch":"Q","bid":"227.5","ask":"227.53","last":"227.52","size":"200","date":"1731528912441","seq":48211,"flag":"","cancel":false,"correction":false,"session":"normal"}"# + "\n",
            #"{"error":"BRK\/B is not a valid symbol \u00e9"}"# + "\n",
        ]
        var rejectedValidJSON: [String] = []
        let outcome = await StreamDecoderMutationRun(seeds: seeds, seed: 0x5EED_7D, iterations: 8_000).run { text in
            do {
                return try TradierStreamDecoder.decode(text).count
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
