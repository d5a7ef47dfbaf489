import Foundation
import Stores
import Testing

/// The reader behind records' own parsers (`JournalRecordParsing`): what it hands out must be what
/// JSONDecoder would read, and anything else it must leave alone (`isComplete` false).
@Suite struct FlatRecordReaderTests {
    struct Member: Equatable {
        var name: String
        var kind: FlatRecordValue.Kind
        var text: String
    }

    /// The members `json` reads as, or nil when the reader leaves it.
    static func members(_ json: String) -> [Member]? {
        Array(json.utf8).withUnsafeBytes { bytes in
            var reader = FlatRecordReader(bytes)
            var members: [Member] = []
            while let member = reader.next() {
                members.append(Member(
                    name: String(decoding: member.name, as: UTF8.self), kind: member.value.kind,
                    text: String(decoding: member.value.bytes, as: UTF8.self)))
            }
            return reader.isComplete ? members : nil
        }
    }

    /// The number `text` as the reader gives it as a `Double`.
    static func double(_ text: String) -> Double? {
        Array(#"{"x":\#(text)}"#.utf8).withUnsafeBytes { bytes in
            var reader = FlatRecordReader(bytes)
            return reader.next()?.value.double
        }
    }

    @Test func readsEveryMemberOfAFlatObjectInOrder() {
        let json = #"{"text":"AAPL ~ 1/2","number":-1.5e3,"yes":true,"no":false,"nothing":null,"empty":"","zero":0}"#
        #expect(Self.members(json) == [
            Member(name: "text", kind: .string, text: "AAPL ~ 1/2"),
            Member(name: "number", kind: .number, text: "-1.5e3"),
            Member(name: "yes", kind: .true, text: "true"),
            Member(name: "no", kind: .false, text: "false"),
            Member(name: "nothing", kind: .null, text: "null"),
            Member(name: "empty", kind: .string, text: ""),
            Member(name: "zero", kind: .number, text: "0"),
        ])
        #expect(Self.members("{}") == [])
        // Long strings cross the reader's eight-byte steps at every offset.
        for length in 0..<40 {
            let text = String(repeating: "x", count: length)
            #expect(Self.members(#"{"\#(text)":"\#(text)"}"#) == [Member(name: text, kind: .string, text: text)])
        }
    }

    @Test(arguments: [
        #"{"a": 1}"#, #" {"a":1}"#, #"{"a":1} "#, #"{"a":1}x"#, #"{"a":1"#, #"{"a"1}"#, #"{a:1}"#, #"{"a":1,}"#,
        #"{"a":{}}"#, #"{"a":[1]}"#, #"[]"#, #""#, #"{"#, #"{}}"#,
        #"{"a":"x\"y"}"#, #"{"a":"\u00e9"}"#, #"{"a\n":1}"#, "{\"a\":\"é\"}", "{\"a\":\"tab\tin\"}", "{\"a\":\"del\u{7F}\"}",
        #"{"a":"unclosed}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":-}"#, #"{"a":1e}"#, #"{"a":+1}"#,
        #"{"a":1.2.3}"#, #"{"a":--1}"#, #"{"a":1e+}"#, #"{"a":tru}"#, #"{"a":nulls}"#, #"{"a":NaN}"#,
    ])
    func leavesAnythingButAFlatCompactObjectAlone(json: String) {
        #expect(Self.members(json) == nil, "\(json)")
    }

    /// Every member before the place it stops is still handed out; only `isComplete` says the object
    /// as a whole was not read.
    @Test func saysWhenItStoppedPartWay() {
        Array(#"{"a":1,"b":"x\n"}"#.utf8).withUnsafeBytes { bytes in
            var reader = FlatRecordReader(bytes)
            #expect(reader.next()?.isNamed("a") == true)
            #expect(reader.next() == nil && !reader.isComplete)
            #expect(reader.next() == nil)
        }
    }

    /// Whatever stops a plain string, at every place within and across the reader's eight-byte steps.
    @Test func anEscapeOrAByteBeyondPrintableASCIIAnywhereInAStringIsLeftAlone() {
        for length in 1..<24 {
            for position in 0..<length {
                for stop in ["\\", "\u{1}", "\u{1F}", "\u{7F}", "é", "😀"] {
                    var text = String(repeating: "a", count: length)
                    text.replaceSubrange(text.index(text.startIndex, offsetBy: position)...text.index(text.startIndex, offsetBy: position), with: stop)
                    #expect(Self.members(#"{"name":"\#(text)"}"#) == nil, "\(length) \(position) \(stop.unicodeScalars.first!.value)")
                    #expect(Self.members(#"{"\#(text)":1}"#) == nil)
                }
            }
        }
    }

    /// Reading members in the order the writer keeps them: a name that is not the next one reads
    /// nothing, so the next name can be tried.
    @Test func readsAMemberByTheNameExpectedNext() {
        Array(#"{"ask":"1.5","lastTrade":"2","orderID":"P-2","time":7}"#.utf8).withUnsafeBytes { bytes in
            var reader = FlatRecordReader(bytes)
            #expect(reader.nextMember(named: "bid") == nil)
            #expect(reader.nextMember(named: "as") == nil && reader.nextMember(named: "asks") == nil)
            #expect(reader.nextMember(named: "ask")?.isString("1.5") == true)
            // "last" is a prefix of the next name, not the name.
            #expect(reader.nextMember(named: "last") == nil)
            #expect(reader.nextMember(named: "lastTrade")?.isString("2") == true)
            #expect(reader.next()?.isNamed("orderID") == true)
            #expect(reader.nextMember(named: "time")?.double == 7 && reader.isComplete)
            #expect(reader.nextMember(named: "time") == nil)
        }
        Array(#"{"ask":"x\n","bid":"1"}"#.utf8).withUnsafeBytes { bytes in
            var reader = FlatRecordReader(bytes)
            // A value it does not read ends the reading, as with `next()`.
            #expect(reader.nextMember(named: "ask") == nil && reader.nextMember(named: "bid") == nil && !reader.isComplete)
        }
    }

    @Test func comparesNamesAndStringsWithTheirBytes() {
        Array(#"{"orderID":"P-2","order":"P"}"#.utf8).withUnsafeBytes { bytes in
            var reader = FlatRecordReader(bytes)
            let first = reader.next()
            #expect(first?.isNamed("orderID") == true && first?.isNamed("order") == false && first?.isNamed("orderIDs") == false)
            #expect(first?.value.isString("P-2") == true && first?.value.isString("P-") == false)
            #expect(first?.value.string == "P-2" && first?.value.double == nil)
            let second = reader.next()
            #expect(second?.isNamed("order") == true && second?.value.isString("P") == true)
        }
    }

    /// Names and strings are compared a word at a time (two that overlap, for most lengths): a difference
    /// in any byte, at every length, must still show, and so must a name one byte longer or shorter.
    @Test func comparesEveryByteOfNamesAndStringsOfEveryLength() {
        let literals: [StaticString] = [
            "a", "ab", "ask", "side", "price", "fillID", "orderID", "quantity", "orderType", "commission",
            "priceSource", "startingCash", "clientOrderID", "abcdefghijklmn", "abcdefghijklmno", "abcdefghijklmnop",
            "abcdefghijklmnopq", "abcdefghijklmnopqrstuvwxyz",
        ]
        for literal in literals {
            let text = literal.description
            var variants = [text, String(text.dropLast()), text + "x", "x" + text]
            for position in 0..<text.utf8.count {
                var bytes = Array(text.utf8)
                bytes[position] = UInt8(ascii: "#")
                variants.append(String(decoding: bytes, as: UTF8.self))
            }
            for variant in variants where !variant.isEmpty {
                let same = variant == text
                Array(#"{"\#(variant)":"\#(variant)"}"#.utf8).withUnsafeBytes { bytes in
                    var byName = FlatRecordReader(bytes)
                    #expect((byName.nextMember(named: literal) != nil) == same, "\(variant) read as \(text)")
                    var inOrder = FlatRecordReader(bytes)
                    let member = inOrder.next()
                    #expect(member?.isNamed(literal) == same && member?.value.isString(literal) == same, "\(variant) read as \(text)")
                }
            }
        }
    }

    /// The nearest double, as JSONDecoder reads it, for the numbers JSONEncoder writes (a `Date`'s
    /// seconds, 17 significant digits, exponents) and for hand-written ones.
    @Test func readsNumbersToTheDoubleJSONDecoderReads() throws {
        var generator = SplitMix64(seed: 15)
        let encoder = JSONEncoder()
        var written: [String] = ["0", "-0", "1", "-1", "0.1", "0.30000000000000004", "1e22", "1e23", "1E-7", "2.5e-08",
                                 "9007199254740993", "123456789012345678901234567890", "0.000000000000000000001",
                                 "817254237.3312345", "-817254237.33", "1.7976931348623157e308", "5e-324", "4.9e-324"]
        for _ in 0..<3_000 {
            let value: Double = switch Int.random(in: 0..<4, using: &generator) {
            case 0: Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &generator))
            case 1: Double.random(in: 700_000_000...900_000_000, using: &generator)
            case 2: Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &generator)) / 100
            default: Double.random(in: -1...1, using: &generator) * 1e-6
            }
            written.append(String(decoding: try encoder.encode([value]), as: UTF8.self).dropFirst().dropLast().description)
            let digits = String(UInt64.random(in: 0...UInt64.max, using: &generator))
            let point = Int.random(in: 0..<digits.count, using: &generator)
            written.append(digits.prefix(point).description + (point == 0 ? "0" : "") + "." + digits.dropFirst(point) + "e\(Int.random(in: -30...30, using: &generator))")
        }
        var read = 0
        for text in written {
            let reference = try? JSONDecoder().decode([String: Double].self, from: Data(#"{"x":\#(text)}"#.utf8))["x"]
            guard let fast = Self.double(text) else { continue }
            #expect(fast.bitPattern == reference?.bitPattern, "\(text)")
            read += 1
        }
        #expect(read > written.count * 9 / 10, "the reader should read nearly every number itself")
        // Beyond a double's range: left to Codable.
        #expect(Self.double("1e400") == nil && Self.double("-1e400") == nil && Self.double("1e-400") == nil)
    }
}
