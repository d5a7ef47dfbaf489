import Domain
import Foundation

/// A forward-only JSON reader over UTF-8 bytes, for the stream decoders' hot path. JSONDecoder with
/// minimal Codable structs managed about 150k events/s on one core for Polygon- and Alpaca-style frames
/// (swift-corelibs-foundation, Swift 6.3); the benchmark wants 500k. This reads only the fields a decoder
/// asks for, compares keys as packed integers instead of strings, and skips everything else without
/// building values.
///
/// Every read checks bounds and either returns a value, returns nil for a value of another JSON type
/// (which it has skipped), or throws `Failure` for bytes that are not JSON; it never traps, whatever the
/// input (the decoders' random-mutation tests hold it to that). Skipped values are checked only for
/// balanced brackets and terminated strings, which is all that finding the next field needs.
public struct StreamJSONScanner {
    /// Why the bytes are not the JSON the decoder expected, and where.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public let offset: Int
        public let reason: String

        public var description: String { "malformed JSON at byte \(offset): \(reason)" }
    }

    /// A key or short string value (at most 16 bytes, no escapes) packed into two integers, so a decoder
    /// matches keys with two comparisons and no allocation. Longer or escaped strings are `unknown`,
    /// which matches no name a decoder looks for (the brokers' keys and type tags are short and plain).
    struct Name: Hashable, Sendable {
        var low: UInt64
        var high: UInt64

        static let unknown = Name(low: .max, high: .max)

        // Concrete, so a decoder's `switch key { case Key.ev: … }` compares two integers instead of going
        // through the generic `~=` and `Equatable`'s witness table (half the decoding time before this).
        @inline(__always)
        static func ~= (pattern: Name, value: Name) -> Bool {
            pattern.low == value.low && pattern.high == value.high
        }

        init(low: UInt64, high: UInt64) {
            self.low = low
            self.high = high
        }

        init(_ text: StaticString) {
            self = text.withUTF8Buffer { bytes in
                precondition(bytes.count <= 16, "names are at most 16 bytes")
                return Name.pack(bytes, from: 0, to: bytes.count)
            }
        }

        static func pack(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Name {
            let count = end - start
            // Two unaligned word loads, the bytes past the name masked off, where 16 bytes from `start`
            // are inside the buffer (a frame's keys almost always are): the byte loop below took a
            // branch per byte and was a twentieth of decoding.
            if let base = bytes.baseAddress, start + 16 <= bytes.count {
                let raw = UnsafeRawPointer(base + start)
                let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
                let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                let low = count >= 8 ? first : first & ((1 << (8 * UInt64(count))) - 1)
                let high = count <= 8 ? 0 : count >= 16 ? second : second & ((1 << (8 * UInt64(count - 8))) - 1)
                return Name(low: low, high: high | UInt64(count) << 56)
            }
            var low: UInt64 = 0
            var high: UInt64 = 0
            // The length goes in the top byte so that "p" and "p\0" differ.
            for offset in 0..<(end - start) {
                let byte = UInt64(bytes[start + offset])
                if offset < 8 { low |= byte << (8 * UInt64(offset)) } else { high |= byte << (8 * UInt64(offset - 8)) }
            }
            high |= UInt64(end - start) << 56
            return Name(low: low, high: high)
        }
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: Structure

    var isAtEnd: Bool {
        mutating get {
            skipWhitespace()
            return index >= bytes.count
        }
    }

    // The structural reads below are inlined: each is a few instructions around the whitespace check,
    // and as calls they were an eighth of decoding (perf, the decode benchmark). Their failures are built out of line.

    /// The next significant byte, without consuming it.
    @inline(__always)
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Consumes `byte` if it comes next.
    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(Failure) {
        guard consume(byte) else { throw expected(byte) }
    }

    /// After an element or member: true if another follows (a comma was read), false if `close` ended
    /// the container.
    @inline(__always)
    mutating func another(before close: UInt8) throws(Failure) -> Bool {
        if consume(UInt8(ascii: ",")) { return true }
        if consume(close) { return false }
        throw expectedCommaOr(close)
    }

    @inline(never)
    private func expected(_ byte: UInt8) -> Failure {
        failure("expected '\(Character(Unicode.Scalar(byte)))'")
    }

    @inline(never)
    private func expectedCommaOr(_ close: UInt8) -> Failure {
        failure("expected ',' or '\(Character(Unicode.Scalar(close)))'")
    }

    /// Reads `"key":` and returns the key's name.
    mutating func key() throws(Failure) -> Name {
        let name = try nameString()
        try expect(UInt8(ascii: ":"))
        return name
    }

    /// Calls `member` for each key of the object that comes next; `member` must consume the value.
    mutating func object(_ member: (inout StreamJSONScanner, Name) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "{"))
        if consume(UInt8(ascii: "}")) { return }
        repeat {
            let name = try key()
            try member(&self, name)
        } while try another(before: UInt8(ascii: "}"))
    }

    /// Calls `element` for each element of the array that comes next; `element` must consume it.
    mutating func array(_ element: (inout StreamJSONScanner) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "["))
        if consume(UInt8(ascii: "]")) { return }
        repeat {
            try element(&self)
        } while try another(before: UInt8(ascii: "]"))
    }

    // MARK: Values

    /// A string value as a `Name`; nil (value skipped) if the value is not a string.
    mutating func name() throws(Failure) -> Name? {
        guard peek() == UInt8(ascii: "\"") else {
            try skipValue()
            return nil
        }
        return try nameString()
    }

    /// A string value; nil (value skipped) if the value is not a string.
    mutating func string() throws(Failure) -> String? {
        guard let content = try stringContent() else { return nil }
        if !content.escaped {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[content.start..<content.end]), as: UTF8.self)
        }
        return try unescaped(from: content.start, to: content.end)
    }

    /// A string value read as an RFC 3339 date-time (`RFC3339`) from its bytes in place; nil if the
    /// value is not a string (skipped) or not a valid date-time. An escaped string is unescaped first.
    mutating func rfc3339Date() throws(Failure) -> Date? {
        guard let content = try stringContent() else { return nil }
        if content.escaped { return RFC3339.date(from: try unescaped(from: content.start, to: content.end)) }
        return RFC3339.instant(utf8: UnsafeBufferPointer(rebasing: bytes[content.start..<content.end]))?.date
    }

    /// Where a string value's text lies between its quotes, and whether it has escapes, the scanner left
    /// past the closing quote; nil (value skipped) if the value is not a string.
    private mutating func stringContent() throws(Failure) -> (start: Int, end: Int, escaped: Bool)? {
        guard peek() == UInt8(ascii: "\"") else {
            try skipValue()
            return nil
        }
        let start = index + 1
        let (end, escaped) = try stringEnd()
        return (start, end, escaped)
    }

    /// An array of strings; nil (value skipped) if the value is not an array. Non-string elements are
    /// left out.
    mutating func strings() throws(Failure) -> [String]? {
        guard peek() == UInt8(ascii: "[") else {
            try skipValue()
            return nil
        }
        var result: [String] = []
        try array { (scanner: inout StreamJSONScanner) throws(Failure) in
            if let text = try scanner.string() { result.append(text) }
        }
        return result
    }

    /// A number value as an exact decimal, read from the number's own bytes (never through `Double`); nil
    /// (value skipped) if the value is not a number, or is beyond ±90,000,000,000. Prices take a fast path:
    /// a plain decimal of at most 18 significant digits and 8 decimals is its digits (already gathered
    /// while the token was read) times a power of ten. Anything else (an exponent, more decimals, which
    /// round half to even at the 8th) goes through `ExactDecimal(parsingUTF8:)` on the token's bytes.
    mutating func exactDecimal() throws(Failure) -> ExactDecimal? {
        guard let number = try numberToken() else { return nil }
        if number.exponent == 0, number.fractionDigits <= ExactDecimal.scale, number.digitCount <= 18 {
            let (units, overflow) = number.mantissa.multipliedReportingOverflow(by: ExactDecimal.unitsPerDigit(fractionDigits: number.fractionDigits))
            // 9×10¹⁸ units: `ExactDecimal.max`.
            guard !overflow, units <= 9_000_000_000_000_000_000 else { return nil }
            return ExactDecimal(units: number.negative ? -units : units)
        }
        return ExactDecimal(parsingUTF8: UnsafeBufferPointer(rebasing: bytes[number.start..<number.end]))
    }

    /// An integer value; nil (value skipped) if the value is not a number, or not an integer that fits.
    mutating func int64() throws(Failure) -> Int64? {
        guard let number = try numberToken(), number.fractionDigits == 0, number.exponent == 0,
              number.digitCount <= 18 || number.fitsInt64
        else { return nil }
        return number.negative ? -number.mantissa : number.mantissa
    }

    /// Skips one value of any type.
    mutating func skipValue() throws(Failure) {
        guard let first = peek() else { throw failure("expected a value") }
        switch first {
        case UInt8(ascii: "\""):
            _ = try stringEnd()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            // Brackets are counted, strings skipped whole; the structure inside is not checked further.
            var depth = 0
            repeat {
                guard index < bytes.count else { throw failure("unterminated container") }
                switch bytes[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    index += 1
                case UInt8(ascii: "\""):
                    _ = try stringEnd()
                default:
                    index += 1
                }
            } while depth > 0
        default:
            // A number or a literal (true, false, null).
            let start = index
            while index < bytes.count, Self.isScalarByte(bytes[index]) { index += 1 }
            guard index > start else { throw failure("expected a value") }
        }
    }

    // MARK: Private

    private static func isScalarByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }

    private func failure(_ reason: String) -> Failure {
        Failure(offset: index, reason: reason)
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    /// Reads a string (the scanner is on its opening quote) and returns it packed as a `Name`.
    private mutating func nameString() throws(Failure) -> Name {
        guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string") }
        let start = index + 1
        let (end, escaped) = try stringEnd()
        guard !escaped, end - start <= 16 else { return .unknown }
        return Name.pack(bytes, from: start, to: end)
    }

    /// Moves past the string the scanner is on (at its opening quote); returns the index of its closing
    /// quote and whether it holds escapes.
    private mutating func stringEnd() throws(Failure) -> (end: Int, escaped: Bool) {
        var position = index + 1
        var escaped = false
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                index = position + 1
                return (position, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                position += 2
            default:
                position += 1
            }
        }
        throw failure("unterminated string")
    }

    /// The text of a string with escapes between `start` and `end` (its closing quote).
    private func unescaped(from start: Int, to end: Int) throws(Failure) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var position = start
        func hex4(at offset: Int) -> UInt32? {
            guard offset + 4 <= end else { return nil }
            var value: UInt32 = 0
            for byte in bytes[offset..<(offset + 4)] {
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: return nil
                }
                value = value << 4 | digit
            }
            return value
        }
        while position < end {
            let byte = bytes[position]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                position += 1
                continue
            }
            guard position + 1 < end else { throw Failure(offset: position, reason: "bad escape") }
            let escape = bytes[position + 1]
            position += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var code = hex4(at: position) else { throw Failure(offset: position, reason: "bad \\u escape") }
                position += 4
                // A high surrogate followed by an escaped low one is one character; a lone one is replaced.
                if (0xD800..<0xDC00).contains(code), position + 1 < end, bytes[position] == UInt8(ascii: "\\"),
                   bytes[position + 1] == UInt8(ascii: "u"), let low = hex4(at: position + 2), (0xDC00..<0xE000).contains(low) {
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    position += 6
                }
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw Failure(offset: position - 1, reason: "bad escape")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private struct NumberToken {
        var start: Int
        var end: Int
        var negative: Bool
        /// The digits without the decimal point, as long as they fit (see `digitCount`).
        var mantissa: Int64
        var digitCount: Int
        var fractionDigits: Int
        /// Nonzero when the number has an exponent part.
        var exponent: Int
        var fitsInt64: Bool
    }

    /// (Int64.max − 9) / 10: any mantissa below it takes another digit without overflowing.
    private static var uncheckedMantissaLimit: Int64 { 922_337_203_685_477_579 }

    /// Reads a number per JSON's grammar; nil (value skipped) if the value is not a number.
    private mutating func numberToken() throws(Failure) -> NumberToken? {
        guard let first = peek() else { throw failure("expected a value") }
        guard first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            try skipValue()
            return nil
        }
        var token = NumberToken(
            start: index, end: index, negative: false, mantissa: 0, digitCount: 0, fractionDigits: 0, exponent: 0, fitsInt64: true)
        var position = index
        if bytes[position] == UInt8(ascii: "-") {
            token.negative = true
            position += 1
        }
        func digits(_ position: inout Int, into token: inout NumberToken, fraction: Bool) -> Int {
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                let digit = Int64(bytes[position] - UInt8(ascii: "0"))
                // Below this, ten times the mantissa plus a digit cannot overflow: no overflow checks
                // for the digits of any price; the checked path takes over before the limit.
                if token.mantissa < Self.uncheckedMantissaLimit {
                    token.mantissa = token.mantissa &* 10 &+ digit
                } else {
                    let (times10, overflow1) = token.mantissa.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times10.addingReportingOverflow(digit)
                    if overflow1 || overflow2 { token.fitsInt64 = false } else { token.mantissa = sum }
                }
                if token.digitCount > 0 || digit != 0 || fraction { token.digitCount += 1 }
                if fraction { token.fractionDigits += 1 }
                position += 1
            }
            return position - start
        }
        guard digits(&position, into: &token, fraction: false) > 0 else { throw failure("bad number") }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits(&position, into: &token, fraction: true) > 0 else { throw failure("bad number") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            var exponentToken = NumberToken(
                start: position, end: position, negative: false, mantissa: 0, digitCount: 0, fractionDigits: 0, exponent: 0, fitsInt64: true)
            guard digits(&position, into: &exponentToken, fraction: false) > 0 else { throw failure("bad number") }
            token.exponent = 1
        }
        if !token.fitsInt64 { token.digitCount = .max }
        token.end = position
        index = position
        return token
    }
}
