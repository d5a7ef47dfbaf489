import Bus
import Domain
import Networking
import Testing

@Suite("BusKeys: key names and their parsing")
struct BusKeysTests {
    /// Texts that are not plain tokens: a `.` that would split a key, wildcards, the escape character
    /// itself, spaces, control characters, several scripts, an emoji, and the empty text.
    static let awkward = [
        "AAPL", "BRK.B", "^GSPC", "a=b", "=", "==3D", "*", ">", "a.b.c", ".", "..", "a b", "\t\n\0", "/", "é", "日本株",
        "🚀🚀", "host:4222", "paper-2_x", "-", "_", "",
    ]

    @Test("keys have the documented shapes, common tickers read as themselves")
    func shapes() {
        #expect(BusKeys.quote(broker: "alpaca", symbol: "AAPL") == "quote.alpaca.AAPL")
        #expect(BusKeys.quote(broker: "alpaca", symbol: "BRK.B") == "quote.alpaca.BRK=2EB")
        #expect(BusKeys.quote(broker: "polygon", symbol: "^GSPC") == "quote.polygon.=5EGSPC")
        #expect(BusKeys.quote(broker: "x", symbol: "a=b") == "quote.x.a=3Db")
        #expect(BusKeys.quote(broker: "x", symbol: "") == "quote.x.=")
        #expect(BusKeys.quote(broker: "x", symbol: "é") == "quote.x.=C3=A9")
        #expect(BusKeys.quotes(broker: "alpaca") == "quote.alpaca.>")
        #expect(BusKeys.quotes(broker: "a.b") == "quote.a=2Eb.>")
        #expect(BusKeys.state(broker: "alpaca") == "state.alpaca")
        #expect(BusKeys.lease(broker: "alpaca") == "lease.alpaca")
        #expect(BusKeys.leaseAndState(broker: "alpaca") == "*.alpaca")
        #expect(BusKeys.demand(instance: "host:42", broker: "alpaca") == "demand.host=3A42.alpaca")
        #expect(BusKeys.demands(broker: "alpaca") == "demand.*.alpaca")
        #expect(BusKeys.demands(broker: "") == "demand.*.=")
    }

    @Test("every key made is a legal KV key and parses back to what made it", arguments: awkward)
    func roundTrip(_ text: String) {
        let made: [(String, BusKeys.Key)] = [
            (BusKeys.quote(broker: text, symbol: text), .quote(broker: text, symbol: text)),
            (BusKeys.quote(broker: "alpaca", symbol: text), .quote(broker: "alpaca", symbol: text)),
            (BusKeys.quote(broker: text, symbol: "AAPL"), .quote(broker: text, symbol: "AAPL")),
            (BusKeys.state(broker: text), .state(broker: text)),
            (BusKeys.lease(broker: text), .lease(broker: text)),
            (BusKeys.demand(instance: text, broker: text), .demand(instance: text, broker: text)),
            (BusKeys.demand(instance: "i1", broker: text), .demand(instance: "i1", broker: text)),
            (BusKeys.demand(instance: text, broker: "alpaca"), .demand(instance: text, broker: "alpaca")),
        ]
        for (key, expected) in made {
            #expect(NATSKeyValue.keyProblem(key) == nil, "\(key) for \(text.debugDescription)")
            #expect(!key.contains("*") && !key.contains(">") && !key.contains(".."), "\(key)")
            #expect(BusKeys.parse(key) == expected, "\(key) for \(text.debugDescription)")
        }
    }

    @Test("every pattern made is a legal KV pattern, wildcards only where meant", arguments: awkward)
    func patterns(_ broker: String) {
        for pattern in [BusKeys.quotes(broker: broker), BusKeys.leaseAndState(broker: broker), BusKeys.demands(broker: broker)] {
            #expect(NATSKeyValue.keyProblem(pattern, allowingWildcards: true) == nil, "\(pattern)")
            #expect(NATSKeyValue.keyProblem(pattern) != nil, "\(pattern) has a wildcard, so it is no plain key")
            #expect(BusKeys.parse(pattern) == nil, "\(pattern) is a pattern, not a key")
        }
        let escaped = NATSTokenEscaping.escape(broker)
        #expect(BusKeys.quotes(broker: broker) == "quote.\(escaped).>")
        #expect(BusKeys.leaseAndState(broker: broker) == "*.\(escaped)")
        #expect(BusKeys.demands(broker: broker) == "demand.*.\(escaped)")
    }

    @Test("the lease-and-state pattern matches exactly the lease and state keys of its broker")
    func leaseAndStateCoversBoth() {
        for broker in Self.awkward {
            let pattern = BusKeys.leaseAndState(broker: broker).split(separator: ".", omittingEmptySubsequences: false)
            for key in [BusKeys.lease(broker: broker), BusKeys.state(broker: broker)] {
                let tokens = key.split(separator: ".", omittingEmptySubsequences: false)
                #expect(tokens.count == pattern.count && tokens[1] == pattern[1], "\(key) vs \(pattern)")
            }
            let quote = BusKeys.quote(broker: broker, symbol: "X").split(separator: ".", omittingEmptySubsequences: false)
            #expect(quote.count != pattern.count, "a quote key must not match the two-token pattern")
        }
    }

    @Test("keys of other shapes parse to nil", arguments: [
        "", ".", "quote", "quote.alpaca", "quote.alpaca.AAPL.extra", "quote..AAPL", "quote.alpaca.", "state", "state.",
        "state.alpaca.extra", "lease", "lease.a.b", "demand.i1", "demand.i1.alpaca.x", "demand..alpaca", "other.alpaca",
        "Quote.alpaca.AAPL", "quotes.alpaca.AAPL", "quote.alpaca.*", "quote.alpaca.>", "*.alpaca", "demand.*.alpaca",
        // Tokens the escaping never makes: a kept byte escaped, lower-case hex, a short escape, bytes that are
        // not UTF-8, characters that are never kept (`/`, `:`, a space).
        "quote.alpaca.=41APL", "quote.alpaca.BRK=2eB", "quote.alpaca.BRK=", "quote.alpaca.BRK=2", "quote.alpaca.=FF",
        "quote.alpaca.=C3", "state.a=", "lease.a/b", "demand.host:1.alpaca", "state.a b",
    ])
    func refusesOtherShapes(_ key: String) {
        #expect(BusKeys.parse(key) == nil)
    }

    @Test("a seeded sample of arbitrary texts round-trips through every key")
    func seededTexts() {
        var random = SplitMix64(seed: 0xB05)
        for _ in 0..<500 {
            let scalars = (0..<Int(random.next() % 6)).compactMap { _ -> Unicode.Scalar? in
                switch random.next() % 4 {
                case 0: Unicode.Scalar(UInt32(0x20 + random.next() % 0x5F))
                case 1: Unicode.Scalar(UInt32(random.next() % 0x20))
                case 2: Unicode.Scalar(UInt32(0x80 + random.next() % 0xFF80))
                default: Unicode.Scalar(UInt32(0x10000 + random.next() % 0x100000))
                }
            }
            let text = String(String.UnicodeScalarView(scalars))
            let key = BusKeys.demand(instance: text, broker: text)
            #expect(NATSKeyValue.keyProblem(key) == nil, "\(key)")
            #expect(BusKeys.parse(key) == .demand(instance: text, broker: text), "\(text.debugDescription)")
            #expect(BusKeys.parse(BusKeys.quote(broker: text, symbol: text)) == .quote(broker: text, symbol: text))
        }
    }
}
