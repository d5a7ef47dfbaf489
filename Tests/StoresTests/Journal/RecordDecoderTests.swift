import Domain
import Foundation
import Testing
@testable import Stores

/// The replay's own decoder must give exactly what JSONDecoder gives, for whatever JSONEncoder writes.
@Suite struct RecordDecoderTests {
    /// The fast path itself (not the JSONDecoder fallback) on 300 seeded random records, written with and
    /// without escaped slashes.
    @Test func readsEverythingJSONEncoderWritesAsJSONDecoderDoes() throws {
        var generator = SplitMix64(seed: 2026)
        for index in 0..<300 {
            let sample = RecordSample.random(using: &generator)
            let encoder = JSONEncoder()
            encoder.outputFormatting = index.isMultiple(of: 2) ? [.sortedKeys, .withoutEscapingSlashes] : []
            let json = String(decoding: try encoder.encode(sample), as: UTF8.self)

            let fast = try Self.fastDecode(RecordSample.self, json)
            let reference = try JSONDecoder().decode(RecordSample.self, from: Data(json.utf8))

            #expect(fast == reference, "\(json)")
            #expect(fast.double.bitPattern == reference.double.bitPattern, "\(json)")
            #expect(fast.float.bitPattern == reference.float.bitPattern, "\(json)")
            #expect(fast.date.timeIntervalSinceReferenceDate.bitPattern == reference.date.timeIntervalSinceReferenceDate.bitPattern)
            #expect(fast == sample)
        }
    }

    @Test func readsHandWrittenJSONWithWhitespaceAndEscapes() throws {
        let json = """
             { "text" : "caf\\u00e9 \\ud83d\\ude00 \\/ \\" \\\\ \\b\\f\\n\\r\\t" ,
               "numbers" : [ 1 , -2 ,3 ] ,"child":null, "flag" : true }
            """
        struct Small: Codable, Equatable {
            var text: String
            var numbers: [Int]
            var child: [String]?
            var flag: Bool
        }
        let fast = try Self.fastDecode(Small.self, json)
        #expect(fast == (try JSONDecoder().decode(Small.self, from: Data(json.utf8))))
        #expect(fast.text == "café 😀 / \" \\ \u{8}\u{C}\n\r\t")
        #expect(fast.child == nil)
    }

    /// Clinger's fast path must round exactly as `Double(String)` for every number it takes.
    @Test func readsDecimalNumbersToTheSameDoubleAsTheStandardLibrary() throws {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let digits = String(UInt64.random(in: 0...(1 << 53), using: &generator))
            let point = Int.random(in: 0...min(digits.count - 1, 22), using: &generator)
            let text = (Bool.random(using: &generator) ? "-" : "")
                + (point == 0 ? digits : digits.dropLast(point) + "." + digits.suffix(point))
            let bytes = LedgerFixture.buffer(text)
            let fast = RecordScanner(bytes).double(RecordScanner.Span(start: 0, end: bytes.count))
            #expect(fast?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    /// Found by Fuzz/JournalReplayFuzzer.swift: JSONDecoder refuses a number that is too small for its type
    /// (`1e-400` as a Double, `1e-50` as a Float) and, as it happens, a zero with an exponent (`0e5`), but
    /// the fast path read them as 0, so a hand-edited line JSONDecoder refuses was replayed. It now leaves
    /// every zero not written as a plain zero to JSONDecoder, whose answer is the one that counts.
    @Test func numbersTooSmallForTheirTypeAreLeftToJSONDecoder() throws {
        struct Measures: Codable, Equatable {
            var ratio: Double
            var scale: Float
        }
        for json in [#"{"ratio":1e-400,"scale":1}"#, #"{"ratio":2.4703282292062327e-324,"scale":1}"#,
                     #"{"ratio":1,"scale":1e-46}"#, #"{"ratio":0e5,"scale":1}"#, #"{"ratio":1,"scale":0e5}"#] {
            #expect(throws: DecodingError.self, "\(json)") { try Self.fastDecode(Measures.self, json) }
            let bytes = LedgerFixture.buffer(json)
            let decoded = Result { try RecordDecoding.decode(Measures.self, from: bytes, 0..<bytes.count) }
            let reference = Result { try JSONDecoder().decode(Measures.self, from: Data(json.utf8)) }
            #expect((try? decoded.get()) == (try? reference.get()), "\(json)")
        }
        // Zeros written plainly, and the smallest numbers that do fit, are still read on the fast path.
        #expect(try Self.fastDecode(Measures.self, #"{"ratio":-0.0,"scale":0}"#) == Measures(ratio: 0, scale: 0))
        #expect(try Self.fastDecode(Measures.self, #"{"ratio":5e-324,"scale":1e-45}"#)
            == Measures(ratio: .leastNonzeroMagnitude, scale: .leastNonzeroMagnitude))
    }

    @Test func leavesWhatItDoesNotReadToJSONDecoder() throws {
        struct Counted: Codable, Equatable {
            var id: Int
            var label: String
        }
        // JSONDecoder reads an integral 3.0 as an Int; the fast path only reads integers written as such.
        let json = #"{"id":3.0,"label":"x"}"#
        #expect(throws: DecodingError.self) { try Self.fastDecode(Counted.self, json) }
        let bytes = LedgerFixture.buffer(json)
        #expect(try RecordDecoding.decode(Counted.self, from: bytes, 0..<bytes.count) == Counted(id: 3, label: "x"))
    }

    @Test func aRecordNeitherCanReadGetsJSONDecodersError() throws {
        struct Counted: Codable {
            var id: Int
            var label: String
        }
        let bytes = LedgerFixture.buffer(#"{"id":3}"#)
        #expect {
            _ = try RecordDecoding.decode(Counted.self, from: bytes, 0..<bytes.count)
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "label"
        }
    }

    static func fastDecode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        let bytes = LedgerFixture.buffer(json)
        let scanner = RecordScanner(bytes)
        let start = scanner.skipWhitespace(0, bytes.count)
        return try withExtendedLifetime(bytes) {
            try RecordDecoder(scanner: scanner, span: RecordScanner.Span(start: start, end: try scanner.valueEnd(start, bytes.count))).decode(type)
        }
    }
}
