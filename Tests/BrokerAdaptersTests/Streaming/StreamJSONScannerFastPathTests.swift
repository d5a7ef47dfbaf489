import Domain
import Testing

@testable import BrokerAdapters

/// The scanner's fast paths give exactly what the plain code they stand in for gives: a key packed with
/// two word loads (where 16 bytes from its start are in the buffer) equals the byte-by-byte packing (near
/// the end of the buffer), and digits read without overflow checks give the same integers, up to and
/// past the point where they stop fitting.
@Suite struct StreamJSONScannerFastPathTests {
    /// The packing as specified: byte i of the name in byte i of the pair (little-endian), the length in
    /// the top byte.
    private static func reference(_ name: [UInt8]) -> StreamJSONScanner.Name {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for (offset, byte) in name.enumerated() {
            if offset < 8 { low |= UInt64(byte) << (8 * UInt64(offset)) } else { high |= UInt64(byte) << (8 * UInt64(offset - 8)) }
        }
        return StreamJSONScanner.Name(low: low, high: high | UInt64(name.count) << 56)
    }

    private static func pack(_ name: [UInt8], paddedWith padding: Int, seed: UInt64) -> StreamJSONScanner.Name {
        var random = SplitMix64(seed: seed)
        // Bytes before and after the name that must not leak into it.
        let before = (0..<3).map { _ in UInt8.random(in: 1...255, using: &random) }
        let after = (0..<padding).map { _ in UInt8.random(in: 1...255, using: &random) }
        let buffer = before + name + after
        return buffer.withUnsafeBufferPointer { StreamJSONScanner.Name.pack($0, from: before.count, to: before.count + name.count) }
    }

    @Test func everyLengthPacksTheSameWhetherTheBufferEndsAtTheNameOrGoesOn() {
        var random = SplitMix64(seed: 18)
        for length in 0...16 {
            for round in 0..<20 {
                let name = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                let expected = Self.reference(name)
                // 0 bytes after: the byte loop; 16: the word loads; between: either, by where the buffer ends.
                for padding in [0, 1, 7, 8, 15, 16, 24] {
                    #expect(Self.pack(name, paddedWith: padding, seed: UInt64(length * 100 + round)) == expected, "length \(length), padding \(padding)")
                }
            }
        }
    }

    @Test func aKeyMatchesItsNameInTheMiddleAndAtTheVeryEndOfAFrame() throws {
        let type = StreamJSONScanner.Name("type")
        let longest = StreamJSONScanner.Name("sixteen-byte-key")
        for text in [#"{"type":1,"sixteen-byte-key":2,"padding-padding-padding":3}"#, #"{"sixteen-byte-key":2,"type":1}"#] {
            var seen: [StreamJSONScanner.Name] = []
            var bytes = Array(text.utf8)
            try bytes.withUnsafeMutableBufferPointer { buffer throws(StreamJSONScanner.Failure) in
                var scanner = StreamJSONScanner(UnsafeBufferPointer(buffer))
                try scanner.object { (scanner: inout StreamJSONScanner, key: StreamJSONScanner.Name) throws(StreamJSONScanner.Failure) in
                    seen.append(key)
                    try scanner.skipValue()
                }
            }
            #expect(seen.contains(type) && seen.contains(longest), "\(text)")
        }
        // One byte longer than a name can be: unknown, matching nothing.
        var bytes = Array(#"{"seventeen-byte-ke":1}"#.utf8)
        let key = try bytes.withUnsafeMutableBufferPointer { buffer throws(StreamJSONScanner.Failure) in
            var scanner = StreamJSONScanner(UnsafeBufferPointer(buffer))
            var found: StreamJSONScanner.Name?
            try scanner.object { (scanner: inout StreamJSONScanner, key: StreamJSONScanner.Name) throws(StreamJSONScanner.Failure) in
                found = key
                try scanner.skipValue()
            }
            return found
        }
        #expect(key == .unknown)
    }

    private static func int64(_ text: String) throws -> Int64? {
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBufferPointer { buffer throws(StreamJSONScanner.Failure) in
            var scanner = StreamJSONScanner(UnsafeBufferPointer(buffer))
            return try scanner.int64()
        }
    }

    @Test(arguments: [
        ("922337203685477578", Int64?.some(922_337_203_685_477_578)),
        ("922337203685477579", 922_337_203_685_477_579),
        ("9223372036854775799", 9_223_372_036_854_775_799),
        ("9223372036854775807", .max),
        ("-9223372036854775807", -.max),
        ("9223372036854775808", nil),
        ("92233720368547758070", nil),
        ("000000000000000000000000000042", 42),
    ])
    func integersAroundWhereDigitsStopFittingReadExactly(text: String, expected: Int64?) throws {
        #expect(try Self.int64(text) == expected)
    }

    @Test func pricesWithManyDigitsStayExact() throws {
        var bytes = Array("[123456789.12345678, 0.00000001, 90000000000, 90000000000.00000001]".utf8)
        let values = try bytes.withUnsafeMutableBufferPointer { buffer throws(StreamJSONScanner.Failure) in
            var scanner = StreamJSONScanner(UnsafeBufferPointer(buffer))
            var values: [ExactDecimal?] = []
            try scanner.array { (scanner: inout StreamJSONScanner) throws(StreamJSONScanner.Failure) in values.append(try scanner.exactDecimal()) }
            return values
        }
        #expect(values.map { $0?.description } == ["123456789.12345678", "0.00000001", "90000000000", nil])
    }
}
