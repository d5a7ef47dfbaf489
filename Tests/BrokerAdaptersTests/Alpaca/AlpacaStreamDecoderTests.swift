import BrokerAdapters
import Foundation
import Testing

@Suite struct AlpacaStreamDecoderTests {
    static func instant(_ seconds: Int64, _ nanoseconds: Int32 = 0) -> Date {
        RFC3339.Instant(secondsSince1970: seconds, nanoseconds: nanoseconds).date
    }

    /// Reference §3.2's data frame: a trade, a quote and a minute bar, which the watchlist does not use.
    @Test func decodesTheReferenceDataFrameAndSkipsBars() throws {
        let frame = #"""
            [{"T":"t","S":"AAPL","i":96921,"x":"V","p":227.52,"s":100,"c":["@"],"t":"2024-11-13T20:15:02.441123456Z","z":"C"},
             {"T":"q","S":"AAPL","bx":"V","bp":227.5,"bs":3,"ax":"V","ap":227.53,"as":2,"c":["R"],"t":"2024-11-13T20:15:03.123456789Z","z":"C"},
             {"T":"b","S":"AAPL","o":227.6,"h":227.71,"l":227.35,"c":227.52,"v":6123,"t":"2024-11-13T20:14:00Z","n":88,"vw":227.49}]
            """#
        #expect(try AlpacaStreamDecoder.decode(frame) == [
            .trade(symbol: "AAPL", price: exactDecimal("227.52"), timestamp: Self.instant(1_731_528_902, 441_123_456)),
            .quote(symbol: "AAPL", bidPrice: exactDecimal("227.5"), askPrice: exactDecimal("227.53"), timestamp: Self.instant(1_731_528_903, 123_456_789)),
        ])
    }

    @Test func decodesControlMessages() throws {
        #expect(try AlpacaStreamDecoder.decode(#"[{"T":"success","msg":"connected"}]"#) == [.success(message: "connected")])
        #expect(try AlpacaStreamDecoder.decode(#"[{"T":"success","msg":"authenticated"}]"#) == [.success(message: "authenticated")])
        #expect(try AlpacaStreamDecoder.decode(#"[{"T":"error","code":402,"msg":"auth failed"}]"#) == [.error(code: 402, message: "auth failed")])
        #expect(try AlpacaStreamDecoder.decode(#"[{"T":"error","code":406,"msg":"connection limit exceeded"}]"#)
            == [.error(code: 406, message: "connection limit exceeded")])
    }

    /// The subscription message lists every channel, including ones never asked for (reference §3.2).
    @Test func decodesTheCompleteSubscription() throws {
        let frame = #"[{"T":"subscription","trades":["AAPL"],"quotes":["AAPL","MSFT"],"bars":["*"],"updatedBars":[],"dailyBars":[],"statuses":[],"lulds":[],"corrections":["AAPL"],"cancelErrors":["AAPL"]}]"#
        #expect(try AlpacaStreamDecoder.decode(frame) == [.subscription(trades: ["AAPL"], quotes: ["AAPL", "MSFT"])])
        #expect(try AlpacaStreamDecoder.decode(#"[{"T":"subscription","trades":[]}]"#) == [.subscription(trades: [], quotes: [])])
    }

    @Test func timestampsMayCarryOffsetsLowerCaseAndLeapSeconds() throws {
        let frame = #"[{"T":"t","S":"BRK.B","p":1e2,"t":"2016-12-31T23:59:60.5+01:30"},{"T":"q","S":"X","bp":1,"t":"2024-11-13t20:15:02z"}]"#
        #expect(try AlpacaStreamDecoder.decode(frame) == [
            // 23:59:60.5 at +01:30 is 22:30:00.5 UTC on 2016-12-31 (the leap second lands on the next second).
            .trade(symbol: "BRK.B", price: 100, timestamp: Self.instant(1_483_228_799 + 1 - 5400, 500_000_000)),
            .quote(symbol: "X", bidPrice: 1, askPrice: nil, timestamp: Self.instant(1_731_528_902)),
        ])
    }

    /// The timestamp is read from the frame's bytes in place; an escaped one (JSON allows `\u005a` for
    /// `Z`) is unescaped first and means the same instant, and a string that only starts like a date is
    /// no date.
    @Test func escapedTimestampsMeanTheSameAndTrailingTextIsNoDate() throws {
        let frame = #"[{"T":"t","S":"AAPL","p":1,"t":"2024-11-13T20:15:02.5\u005a"},{"T":"t","S":"MSFT","p":2,"t":"2024-11-13T20:15:02Zx"},{"T":"q","S":"X","bp":1,"t":"2024-11-13T20:15:02+00:00"}]"#
        #expect(try AlpacaStreamDecoder.decode(frame) == [
            .trade(symbol: "AAPL", price: 1, timestamp: Self.instant(1_731_528_902, 500_000_000)),
            .quote(symbol: "X", bidPrice: 1, askPrice: nil, timestamp: Self.instant(1_731_528_902)),
        ])
    }

    @Test func incompleteMessagesUnknownTypesAndNonObjectsAreSkipped() throws {
        let frame = #"[{"T":"t","S":"AAPL","t":"2024-11-13T20:15:02Z"},{"T":"t","p":1,"t":"2024-11-13T20:15:02Z"},{"T":"t","S":"AAPL","p":1,"t":"2024-13-13T20:15:02Z"},{"T":"t","S":"AAPL","p":1,"t":1731528902},{"T":"x","S":"AAPL","p":1},{"T":"s","S":"AAPL","sc":"H"},1,"t",null,[],{"T":"t","S":"MSFT","p":2,"t":"2024-11-13T20:15:02Z"}]"#
        #expect(try AlpacaStreamDecoder.decode(frame) == [.trade(symbol: "MSFT", price: 2, timestamp: Self.instant(1_731_528_902))])
    }

    @Test func keysAreCaseSensitive() throws {
        // `s` is the size, not the symbol `S`; `P` is not the price `p`.
        #expect(try AlpacaStreamDecoder.decode(#"[{"T":"t","s":"AAPL","P":1,"t":"2024-11-13T20:15:02Z"}]"#) == [])
    }

    @Test func anErrorCodeThatIsNoIntegerBecomesZero() throws {
        #expect(try AlpacaStreamDecoder.decode(#"[{"T":"error","code":99999999999999999999,"msg":"x"},{"T":"error","code":"402"}]"#)
            == [.error(code: 0, message: "x"), .error(code: 0, message: "")])
    }

    @Test(arguments: ["", "{}", "[", #"[{"T":"t""#, #"[{"T":"t",}]"#, "[1,]", "[] []", #"[{"p":1.}]"#, #"["\"]"#, #"{"T":"success"}"#])
    func nonFramesThrow(text: String) {
        #expect(throws: (any Error).self) { try AlpacaStreamDecoder.decode(text) }
    }

    /// Random byte mutations of real frames: the decoder must never crash, and must accept every mutant
    /// that is still a JSON array (Foundation's parser is the oracle). libFuzzer runs the same checks for
    /// longer in `make fuzz` (Fuzz/AlpacaStreamDecoderFuzzer.swift).
    @Test func seededRandomMutationsNeverCrashAndValidArraysAlwaysDecode() async throws {
        let seeds = [
            #"[{"T":"success","msg":"connected"}]"#,
            #"[{"T":"error","code":405,"msg":"symbol limit exceeded"}]"#,
            #"[{"T":"subscription","trades":["AAPL"],"quotes":["AAPL","MSFT"],"bars":["*"],"corrections":["AAPL"]}]"#,
            #"[{"T":"t","S":"AAPL","i":96921,"x":"V","p":227.52,"s":100,"c":["@"],"t":"2024-11-13T20:15:02.441123456Z","z":"C"},{"T":"q","S":"AAPL","bx":"V","bp":227.5,"bs":3,"ax":"V","ap":227.53,"as":2,"c":["R"],"t":"2024-11-13T20:15:03.123456789Z","z":"C"}]"#,
            #"[{"T":"b","S":"AAPL","o":227.6,"h":227.71,"t":"2024-11-13T20:14:00+01:00","n":88,"x":"a\"b\\u00e9"}]"#,
        ]
        let outcome = await StreamDecoderMutationRun(seeds: seeds, seed: 0x5EED_A1FA, iterations: 20_000).run { text in
            try AlpacaStreamDecoder.decode(text).count
        }
        #expect(outcome.rejectedValidArrays.isEmpty, "valid JSON arrays the decoder threw on: \(outcome.rejectedValidArrays.prefix(3))")
        #expect(outcome.decoded > 100)
        #expect(outcome.threw > 100)
    }
}
