@testable import Bus
import Domain
import Foundation
import Testing

@Suite("BusQuoteWire: a quote as one line of ASCII")
struct BusQuoteWireTests {
    /// The instant `microseconds` after 1970, as the wire means it.
    static func instant(_ microseconds: Int64) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(microseconds - 978_307_200_000_000) / 1_000_000)
    }

    static func text(_ quote: CommonQuote) -> String {
        String(decoding: BusQuoteWire.encode(quote), as: UTF8.self)
    }

    /// Why `line` was refused, or nil if it was read.
    static func refusal(_ line: String) -> String? {
        refusal(Array(line.utf8))
    }

    static func refusal(_ bytes: [UInt8]) -> String? {
        switch BusQuoteWire.decode(bytes, symbol: "AAPL") {
        case .success: nil
        case .failure(let error): error.description
        }
    }

    @Test("a known quote is exactly these bytes, and reads back to itself")
    func knownBytes() throws {
        let quote = CommonQuote(
            symbol: "AAPL", last: ExactDecimal(units: 15_025_000_000), timestamp: Self.instant(1_700_000_000_123_456),
            bid: ExactDecimal(units: 15_024_000_000), ask: ExactDecimal(units: 15_026_010_000),
            previousClose: 149, volume: 1_234_567)
        #expect(Self.text(quote) == "q1 150.25 150.24 150.2601 149 1234567 1700000000123456")
        #expect(try BusQuoteWire.decode(BusQuoteWire.encode(quote), symbol: "AAPL").get() == quote)
    }

    @Test("absent fields are written as -, and the symbol comes from the key")
    func absentFields() throws {
        let quote = CommonQuote(symbol: "BRK.B", last: -1, timestamp: Self.instant(0))
        #expect(Self.text(quote) == "q1 -1 - - - - 0")
        let read = try BusQuoteWire.decode(Array("q1 -1 - - - - 0".utf8), symbol: "BRK.B").get()
        #expect(read == quote)
        #expect(try BusQuoteWire.decode(Array("q1 -1 - - - - 0".utf8), symbol: "^GSPC").get().symbol == "^GSPC")
    }

    @Test("a volume below zero, which no reader takes, is written as none")
    func negativeVolume() throws {
        let quote = CommonQuote(symbol: "X", last: 1, timestamp: Self.instant(0), volume: -5)
        #expect(Self.text(quote) == "q1 1 - - - - 0")
        #expect(try BusQuoteWire.decode(BusQuoteWire.encode(quote), symbol: "X").get().volume == nil)
    }

    @Test("a time between microseconds is written to the nearest microsecond")
    func nearestMicrosecond() {
        let base = Self.instant(1_700_000_000_000_000)
        let quote = CommonQuote(symbol: "A", last: 1, timestamp: base.addingTimeInterval(0.000_000_6))
        #expect(Self.text(quote) == "q1 1 - - - - 1700000000000001")
        let below = CommonQuote(symbol: "A", last: 1, timestamp: base.addingTimeInterval(0.000_000_4))
        #expect(Self.text(below) == "q1 1 - - - - 1700000000000000")
    }

    @Test("seeded random quotes round-trip exactly, every field and every microsecond", arguments: [UInt64(1), 2, 3, 0xB05])
    func seededRoundTrip(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let extremes: [Int64] = [ExactDecimal.max.units, -ExactDecimal.max.units, 1, -1, 0, 99_999_999, 15_025_000_000]
        func price() -> ExactDecimal {
            switch random.next() % 4 {
            case 0: ExactDecimal(units: extremes[Int(random.next() % UInt64(extremes.count))])
            case 1: ExactDecimal(units: Int64(random.next() % 100_000_000_000_000))
            case 2: ExactDecimal(units: -Int64(random.next() % 1_000_000_000))
            default: ExactDecimal(units: Int64(bitPattern: random.next()) % ExactDecimal.max.units)
            }
        }
        func maybe<T>(_ make: () -> T) -> T? { random.next() % 3 == 0 ? nil : make() }
        for _ in 0..<2_000 {
            // From 1900 to 2190, every microsecond possible.
            let microseconds = Int64(random.next() % 9_000_000_000_000_000) - 2_208_988_800_000_000
            let volume: Int64? = maybe {
                random.next() % 4 == 0 ? Int64.max : Int64(random.next() % 10_000_000_000)
            }
            let quote = CommonQuote(
                symbol: "X", last: price(), timestamp: Self.instant(microseconds),
                bid: maybe(price), ask: maybe(price), previousClose: maybe(price), volume: volume)
            let bytes = BusQuoteWire.encode(quote)
            #expect(bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "\(Self.text(quote))")
            #expect(Self.text(quote).hasSuffix(" \(microseconds)"), "\(Self.text(quote))")
            let read = try BusQuoteWire.decode(bytes, symbol: "X").get()
            #expect(read == quote, "\(Self.text(quote))")
            #expect(BusQuoteWire.encode(read) == bytes)
        }
    }

    @Test("times at the ends of what the wire carries round-trip to the microsecond", arguments: [
        Int64(0), 1, -1, 999_999, -1_000_001, 978_307_200_000_000, 978_307_200_000_001, 978_307_199_999_999,
        2_147_483_647_999_999, 2_251_799_813_685_248, 4_102_444_800_000_001, 6_999_999_999_999_999, 7_000_000_000_000_000,
        -7_000_000_000_000_000, -6_999_999_999_999_999,
    ])
    func extremeTimes(_ microseconds: Int64) throws {
        let line = "q1 1 - - - - \(microseconds)"
        let read = try BusQuoteWire.decode(Array(line.utf8), symbol: "A").get()
        #expect(Self.text(read) == line)
        #expect(read.timestamp == Self.instant(microseconds))
    }

    @Test("more than 8 decimals are rounded half to even, as ExactDecimal reads any decimal, never refused")
    func moreThanEightDecimals() throws {
        let read = try BusQuoteWire.decode(Array("q1 1.123456785 1.123456775 0.000000015 1.000000000000 - 0".utf8), symbol: "A").get()
        #expect(read.last == ExactDecimal(units: 112_345_678))
        #expect(read.bid == ExactDecimal(units: 112_345_678))
        #expect(read.ask == ExactDecimal(units: 2))
        #expect(read.previousClose == 1)
        #expect(Self.text(read) == "q1 1.12345678 1.12345678 0.00000002 1 - 0")
    }

    @Test("refusals say which field was wrong", arguments: [
        // Field count: empty, too few, too many, doubled, leading and trailing spaces, a tab, a line feed.
        ("", "a quote has 1 field, not 7"),
        ("q1", "a quote has 1 field, not 7"),
        ("q1 1 - - - -", "a quote has 6 fields, not 7"),
        ("q1 1 - - - - 0 0", "a quote has 8 fields, not 7"),
        ("q1  1 - - - - 0", "a quote has 8 fields, not 7"),
        (" q1 1 - - - - 0", "a quote has 8 fields, not 7"),
        ("q1 1 - - - - 0 ", "a quote has 8 fields, not 7"),
        ("q1\t1 - - - - 0", "a quote has 6 fields, not 7"),
        ("q1 1 - - - -\n0", "a quote has 6 fields, not 7"),
        // Version.
        ("q2 1 - - - - 0", "a quote is not in format q1"),
        ("Q1 1 - - - - 0", "a quote is not in format q1"),
        ("q10 1 - - - - 0", "a quote is not in format q1"),
        ("- 1 - - - - 0", "a quote is not in format q1"),
        // Last: required, a decimal in range.
        ("q1 - - - - - 0", "a quote's last price is not a decimal"),
        ("q1 abc - - - - 0", "a quote's last price is not a decimal"),
        ("q1 1,5 - - - - 0", "a quote's last price is not a decimal"),
        ("q1 +1 - - - - 0", "a quote's last price is not a decimal"),
        ("q1 .5 - - - - 0", "a quote's last price is not a decimal"),
        ("q1 NaN - - - - 0", "a quote's last price is not a decimal"),
        ("q1 0x10 - - - - 0", "a quote's last price is not a decimal"),
        ("q1 90000000000.00000001 - - - - 0", "a quote's last price is not a decimal"),
        ("q1 1e11 - - - - 0", "a quote's last price is not a decimal"),
        // Longer than any price the encoder writes (41 characters), though ExactDecimal could read it.
        ("q1 1.000000000000000000000000000000000000000 - - - - 0", "a quote's last price is not a decimal"),
        // Bid, ask, previous close: a decimal or `-`.
        ("q1 1 x - - - 0", "a quote's bid, ask or previous close is neither a decimal nor -"),
        ("q1 1 - -- - - 0", "a quote's bid, ask or previous close is neither a decimal nor -"),
        ("q1 1 - - -1- - 0", "a quote's bid, ask or previous close is neither a decimal nor -"),
        ("q1 1 - - 99999999999 - 0", "a quote's bid, ask or previous close is neither a decimal nor -"),
        // Volume: a whole number, not negative, in Int64, or `-`.
        ("q1 1 - - - -5 0", "a quote's volume is neither a whole number nor -"),
        ("q1 1 - - - 1.5 0", "a quote's volume is neither a whole number nor -"),
        ("q1 1 - - - +5 0", "a quote's volume is neither a whole number nor -"),
        ("q1 1 - - - 1e3 0", "a quote's volume is neither a whole number nor -"),
        ("q1 1 - - - 9223372036854775808 0", "a quote's volume is neither a whole number nor -"),
        ("q1 1 - - - 99999999999999999999999 0", "a quote's volume is neither a whole number nor -"),
        ("q1 1 - - -  0", "a quote's volume is neither a whole number nor -"),
        // Time: whole microseconds, required, in range.
        ("q1 1 - - - - -", "a quote's time is not whole microseconds"),
        ("q1 1 - - - 5 ", "a quote's time is not whole microseconds"),
        ("q1 1 - - - 5 1.5", "a quote's time is not whole microseconds"),
        ("q1 1 - - - 5 --1", "a quote's time is not whole microseconds"),
        ("q1 1 - - - 5 1700000000000000\r", "a quote's time is not whole microseconds"),
        ("q1 1 - - - 5 9223372036854775808", "a quote's time is not whole microseconds"),
        ("q1 1 - - - 5 -9223372036854775809", "a quote's time is not whole microseconds"),
        ("q1 1 - - - 5 7000000000000001", "a quote's time is beyond the years 1748 to 2191"),
        ("q1 1 - - - 5 -7000000000000001", "a quote's time is beyond the years 1748 to 2191"),
        ("q1 1 - - - 5 9223372036854775807", "a quote's time is beyond the years 1748 to 2191"),
        ("q1 1 - - - 5 -9223372036854775807", "a quote's time is beyond the years 1748 to 2191"),
        // Not ASCII: a fraction sign, full-width digits, a no-break space, a minus sign.
        ("q1 1½ - - - - 0", "a quote's last price is not a decimal"),
        ("q1 1 - - - - １７", "a quote's time is not whole microseconds"),
        ("q1\u{A0}1 - - - - 0", "a quote has 6 fields, not 7"),
        ("q1 1 \u{2212}1 - - - 0", "a quote's bid, ask or previous close is neither a decimal nor -"),
    ])
    func refusals(_ line: String, _ expected: String) {
        #expect(Self.refusal(line) == expected)
    }

    @Test("bytes that are not UTF-8 are refused by the field they are in, and the refusal never echoes them")
    func notUTF8() {
        #expect(Self.refusal([0x71, 0x31, 0x20, 0xFF, 0x20, 0x2D, 0x20, 0x2D, 0x20, 0x2D, 0x20, 0x2D, 0x20, 0x30])
            == "a quote's last price is not a decimal")
        #expect(Self.refusal([0xC0, 0x80, 0x20, 0x31, 0x20, 0x2D, 0x20, 0x2D, 0x20, 0x2D, 0x20, 0x2D, 0x20, 0x30])
            == "a quote is not in format q1")
        #expect(Self.refusal(Array("q1 1 - - - 5 1".utf8) + [0x00]) == "a quote's time is not whole microseconds")
        var random = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let bytes = (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            guard let refusal = Self.refusal(bytes) else { continue }
            #expect(refusal.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "\(refusal.debugDescription)")
        }
    }
}
