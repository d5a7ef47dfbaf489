import Domain

/// A strict, single-pass JSON reader for `TradierQuotesDecoder`'s fast path. `StreamJSONScanner` is
/// built for leniency (a skipped value is only bracket-checked, `01` reads as 1) and walks each token
/// twice (find its end, then read it), which held the quotes body to about 300k quotes/s. This reads
/// each token once, packing keys into `StreamJSONScanner.Name` and numbers into digits as it goes, and
/// throws `OffRoad` at the first byte whose meaning JSONDecoder might see differently: the decoder then
/// hands the whole body to JSONDecoder. It never traps, whatever the input.
struct TradierQuotesCursor {
    /// The body leaves the fast path here; the offset is for tests and debugging.
    struct OffRoad: Error {
        let offset: Int
    }

    typealias Name = StreamJSONScanner.Name

    /// `-?digits(.digits)?`, read exactly.
    struct PlainDecimal {
        var negative = false
        var mantissa: Int64 = 0
        /// Digits after the leading zeros, fraction included.
        var significantDigits = 0
        var fractionDigits = 0
        var hasFraction = false
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Keys longer than a packed `Name` (16 bytes) that the decoder reads get names no packed key can
    /// have: a length byte of 0xFF.
    static let changePercentage = Name(low: 1, high: 0xFF << 56)
    static let unmatchedSymbols = Name(low: 2, high: 0xFF << 56)

    // MARK: Structure

    /// The next significant byte, not consumed; 0 at the end.
    @inline(__always)
    mutating func peek() -> UInt8 {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : 0
    }

    var isAtEnd: Bool {
        mutating get { peek() == 0 && index >= bytes.count }
    }

    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(OffRoad) {
        guard peek() == byte else { throw offRoad() }
        index += 1
    }

    /// Consumes `byte` if it comes next.
    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        index += 1
        return true
    }

    /// After a member or element: true after a comma, false after `close`.
    @inline(__always)
    mutating func another(before close: UInt8) throws(OffRoad) -> Bool {
        let byte = peek()
        index += 1
        if byte == UInt8(ascii: ",") { return true }
        if byte == close { return false }
        throw offRoad()
    }

    /// `"key":`, packed. Keys with escapes, control or non-ASCII bytes are off the road: an escaped
    /// key may spell a known one.
    @inline(__always)
    mutating func key() throws(OffRoad) -> Name {
        try expect(UInt8(ascii: "\""))
        if let name = try shortKey() { return name }
        let start = index
        _ = skipOrdinaryWords(stoppingAtNonASCII: true)
        while true {
            guard index < bytes.count else { throw offRoad() }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            // 0x20 through 0x7F, and no escape.
            guard byte &- 0x20 < 0x60, byte != UInt8(ascii: "\\") else { throw offRoad() }
            index += 1
        }
        let length = index - start
        index += 1
        try expect(UInt8(ascii: ":"))
        if length > 16 {
            let key = UnsafeBufferPointer(rebasing: bytes[start..<(start + length)])
            if Self.equal(key, Self.changePercentageText) { return Self.changePercentage }
            if Self.equal(key, Self.unmatchedSymbolsText) { return Self.unmatchedSymbols }
            return .unknown
        }
        guard start + 16 <= bytes.count, let base = bytes.baseAddress else {
            return Name.pack(bytes, from: start, to: start + length)
        }
        // Two unaligned loads and a mask instead of a loop: the same packing as `Name.pack`.
        let raw = UnsafeRawPointer(base + start)
        var low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        var high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        if length < 8 {
            low &= (1 << (8 * UInt64(length))) - 1
            high = 0
        } else if length < 16 {
            high &= (1 << (8 * UInt64(length - 8))) - 1
        }
        return Name(low: low, high: high | UInt64(length) << 56)
    }

    /// A key of at most 15 bytes, read from the one or two words that start it: where its closing
    /// quote is, whether any byte before it is off the road (a backslash, a control byte, one of 0x80 or
    /// more) and its packed name, from the same loads, where the general path scans the words, then the
    /// bytes, then loads them again. Every key of a quote is this short but `change_percentage`. nil
    /// (nothing consumed) when the body ends within 16 bytes or no quote is in them: the general path
    /// reads it. Otherwise consumes the key and its colon.
    ///
    /// As in `skipOrdinaryWords`, a mask's lowest flag is exact and any flag above it may be spurious,
    /// so a bad byte is looked for only below the first quote's flag: a spurious bad flag there would
    /// sit above a true one, which is off the road all the same.
    @inline(__always)
    private mutating func shortKey() throws(OffRoad) -> Name? {
        guard index + 16 <= bytes.count, let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base + index)
        let (ones, highBits) = (Self.ones, Self.highBits)
        @inline(__always) func bad(_ word: UInt64) -> UInt64 {
            zeroBytes(word ^ (ones &* 0x5C)) | ((word &- ones &* 0x20) & ~word & highBits) | (word & highBits)
        }
        /// The bits below a mask's lowest flag.
        @inline(__always) func below(_ flags: UInt64) -> UInt64 { (flags & (0 &- flags)) &- 1 }
        let low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let quoteLow = zeroBytes(low ^ (ones &* 0x22))
        let length: Int
        let name: Name
        if quoteLow != 0 {
            guard bad(low) & below(quoteLow) == 0 else { throw offRoad() }
            length = quoteLow.trailingZeroBitCount >> 3
            name = Name(low: low & ((1 << (8 * UInt64(length))) &- 1), high: UInt64(length) << 56)
        } else {
            guard bad(low) == 0 else { throw offRoad() }
            let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            let quoteHigh = zeroBytes(high ^ (ones &* 0x22))
            guard quoteHigh != 0 else { return nil }
            guard bad(high) & below(quoteHigh) == 0 else { throw offRoad() }
            let highLength = quoteHigh.trailingZeroBitCount >> 3
            length = 8 + highLength
            name = Name(low: low, high: high & ((1 << (8 * UInt64(highLength))) &- 1) | UInt64(length) << 56)
        }
        index += length + 1
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
        } else {
            // Whitespace before the colon is JSON too: `expect` skips it.
            try expect(UInt8(ascii: ":"))
        }
        return name
    }

    private static let changePercentageText = Array("change_percentage".utf8)
    private static let unmatchedSymbolsText = Array("unmatched_symbols".utf8)

    /// Byte for byte, by index: `elementsEqual` between a buffer and an array went through the generic
    /// iterators, some 390 instructions for `change_percentage`, once in every quote.
    @inline(__always)
    private static func equal(_ key: UnsafeBufferPointer<UInt8>, _ text: [UInt8]) -> Bool {
        guard key.count == text.count else { return false }
        return text.withUnsafeBufferPointer { text in
            for offset in 0..<text.count where key[offset] != text[offset] { return false }
            return true
        }
    }

    // MARK: Values

    /// The range between the quotes of the string that comes next, consumed. Only strings JSONDecoder
    /// reads as the same bytes: no escapes, no control characters, valid UTF-8.
    @inline(__always)
    mutating func stringRange() throws(OffRoad) -> Range<Int> {
        try expect(UInt8(ascii: "\""))
        let start = index
        var ascii = skipOrdinaryWords(stoppingAtNonASCII: false) == 0
        while true {
            guard index < bytes.count else { throw offRoad() }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { throw offRoad() }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        let range = start..<index
        index += 1
        if !ascii, String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) == nil { throw offRoad() }
        return range
    }

    mutating func string() throws(OffRoad) -> String {
        let range = try stringRange()
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// True if the string that comes next is exactly `"null"`, consumed either way.
    mutating func isNullString() throws(OffRoad) -> Bool {
        UnsafeBufferPointer(rebasing: bytes[try stringRange()]).elementsEqual("null".utf8)
    }

    /// The literal `word` (`null`, `true`, `false`). What follows is checked by the caller's next read.
    @inline(__always)
    mutating func literal(_ word: StaticString) throws(OffRoad) {
        _ = peek()
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw offRoad() }
        let pointer = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { throw offRoad() }
        index += count
    }

    /// A JSON number in plain decimal form: no exponent, no leading zero (not JSON).
    @inline(__always)
    mutating func number() throws(OffRoad) -> PlainDecimal {
        _ = peek()
        return try decimal(leadingZeros: false)
    }

    /// A string holding a plain decimal (nil for the empty string). Leading zeros (`"01"`) are read only
    /// when `leadingZeros` says so: `Int64("01")` accepts them, `ExactDecimal(parsing:)` does not.
    @inline(__always)
    mutating func numericString(leadingZeros: Bool) throws(OffRoad) -> PlainDecimal? {
        try expect(UInt8(ascii: "\""))
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return nil
        }
        let number = try decimal(leadingZeros: leadingZeros)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw offRoad() }
        index += 1
        return number
    }

    /// Skips a value no field reads, checking it as strictly as JSONDecoder's parser would.
    mutating func skip(depth: Int) throws(OffRoad) {
        guard depth < 32 else { throw offRoad() }
        switch peek() {
        case UInt8(ascii: "{"):
            index += 1
            if consume(UInt8(ascii: "}")) { return }
            repeat {
                _ = try stringRange()
                try expect(UInt8(ascii: ":"))
                try skip(depth: depth + 1)
            } while try another(before: UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            index += 1
            if consume(UInt8(ascii: "]")) { return }
            repeat {
                try skip(depth: depth + 1)
            } while try another(before: UInt8(ascii: "]"))
        case UInt8(ascii: "\""):
            _ = try stringRange()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default:
            // Exponents are valid here: the number is skipped, never converted.
            _ = try decimal(leadingZeros: false)
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                let start = index
                while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
                guard index > start else { throw offRoad() }
            }
        }
    }

    func offRoad() -> OffRoad {
        OffRoad(offset: index)
    }

    // MARK: Private

    /// Inside a key or a string: moves `index` eight bytes at a time over bytes that are only text (no
    /// quote, no backslash, no control byte, and no byte of 0x80 or more when `stoppingAtNonASCII`), up
    /// to the first byte that is not, which the caller's byte loop then reads as before. Returns the high
    /// bits of the bytes passed (non-zero when one was not ASCII). A key or a string is one or two words
    /// long, so this spares the byte loop most of its comparisons: the quotes body spent a quarter of
    /// its time in `key()`'s loop.
    ///
    /// `zeroBytes` flags each byte of a word that is zero with its high bit; a borrow can flag a byte
    /// above a true zero byte, never below, so the lowest flag is exact, and the lowest of several masks
    /// or'ed is the first byte any of them flags.
    @inline(__always)
    private mutating func skipOrdinaryWords(stoppingAtNonASCII: Bool) -> UInt64 {
        guard let base = bytes.baseAddress else { return 0 }
        let (ones, highBits) = (Self.ones, Self.highBits)
        var passedHighBits: UInt64 = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            // Below 0x20: the same borrow test against 0x20 in every byte (bytes of 0x80 or more never flag).
            var stops = zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C)) | ((word &- ones &* 0x20) & ~word & highBits)
            if stoppingAtNonASCII { stops |= word & highBits }
            if stops == 0 {
                passedHighBits |= word & highBits
                index += 8
                continue
            }
            let passed = stops.trailingZeroBitCount >> 3
            if passed > 0 { passedHighBits |= word & highBits & (UInt64.max >> (64 - 8 * passed)) }
            index += passed
            break
        }
        return passedHighBits
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Flags each zero byte of `word` with its high bit (a borrow can flag a byte above a true zero byte,
    /// never below): what `skipOrdinaryWords` and `shortKey` look for in a word, after an xor with the
    /// byte they seek.
    @inline(__always)
    private func zeroBytes(_ word: UInt64) -> UInt64 { (word &- Self.ones) & ~word & Self.highBits }

    @inline(__always)
    private mutating func skipWhitespace() {
        // Most reads find no whitespace: one comparison says so (every JSON whitespace byte is 0x20 or less).
        if index < bytes.count, bytes[index] > UInt8(ascii: " ") { return }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    /// `-?digits(.digits)?` from the current byte; stops at the first byte that is not part of it.
    @inline(__always)
    private mutating func decimal(leadingZeros: Bool) throws(OffRoad) -> PlainDecimal {
        var number = PlainDecimal()
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            number.negative = true
            index += 1
        }
        let integerStart = index
        digits(into: &number)
        guard index > integerStart else { throw offRoad() }
        if !leadingZeros, index - integerStart > 1, bytes[integerStart] == UInt8(ascii: "0") { throw offRoad() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            digits(into: &number)
            guard index > fractionStart else { throw offRoad() }
            number.fractionDigits = index - fractionStart
            number.hasFraction = true
        }
        return number
    }

    /// Past 18 significant digits the mantissa stops growing and only the count goes on, which is
    /// enough to send the number off the road.
    ///
    /// Eight bytes at a time while they are digits (`eightDigits`): a quote's twenty numbers hold about
    /// 110 digits, and the byte loop below spent some 19 instructions on each, a sixth of the body's
    /// decoding. Leading zeros, which count for nothing, are passed first, one by one.
    @inline(__always)
    private mutating func digits(into number: inout PlainDecimal) {
        if number.significantDigits == 0 {
            while index < bytes.count, bytes[index] == UInt8(ascii: "0") { index += 1 }
        }
        if let base = bytes.baseAddress {
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let (count, value) = Self.eightDigits(word)
                guard count > 0, number.significantDigits + count <= 18 else { break }
                number.mantissa = number.mantissa &* Self.powersOfTen[count] &+ Int64(value)
                number.significantDigits += count
                index += count
                if count < 8 { return }
            }
        }
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return }
            if number.significantDigits > 0 || digit != 0 {
                number.significantDigits += 1
                if number.significantDigits <= 18 { number.mantissa = number.mantissa &* 10 &+ Int64(digit) }
            }
            index += 1
        }
    }
}

extension TradierQuotesCursor {
    /// How many of `word`'s bytes, from its lowest (the first in the body), are ASCII digits before the
    /// first that is not, and the number they spell. A byte is a digit when its high nibble is 3 and
    /// adding 6 leaves it so (0x30 through 0x39). Adding 6 carries into the next byte only from 0xFA and
    /// up, a non-digit, so only bytes after the first non-digit can be misjudged, and they are not read.
    /// The value: the digits moved to the top of the word (leading zeros below), then combined pairwise,
    /// by fours, by eights, with three multiplications (as simdjson's `parse_eight_digits_unrolled`).
    @inline(__always)
    static func eightDigits(_ word: UInt64) -> (count: Int, value: UInt64) {
        let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let threes: UInt64 = 0x3030_3030_3030_3030
        let wrong = ((word & nibbles) ^ threes) | (((word &+ 0x0606_0606_0606_0606) & nibbles) ^ threes)
        // The high bit of each byte that is not zero, with no carry between bytes.
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let nonDigits = (((wrong & low7) &+ low7) | wrong) & 0x8080_8080_8080_8080
        let count = nonDigits == 0 ? 8 : nonDigits.trailingZeroBitCount >> 3
        guard count > 0 else { return (0, 0) }
        let shift = UInt64(8 * (8 - count))
        var value = (word &- threes) << shift
        value = ((value & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
        value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        value = ((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
        return (count, value)
    }

    /// 10⁰ through 10⁸, for a mantissa moved left by a run of up to eight digits.
    static let powersOfTen: [Int64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]
}

extension TradierQuotesCursor.PlainDecimal {
    /// Exact for at most 18 significant digits: the digits times a power of ten, or beyond 8 decimals
    /// divided by one and rounded half to even, as `ExactDecimal(parsing:)` (and so JSONDecoder, through
    /// `Foundation.Decimal`) reads them. nil for longer digits, and beyond ±90,000,000,000, where the
    /// JSONDecoder path decides.
    @inline(__always)
    var exactDecimal: ExactDecimal? {
        guard significantDigits <= 18 else { return nil }
        guard fractionDigits <= ExactDecimal.scale else { return roundedToScale }
        let (units, overflow) = mantissa.multipliedReportingOverflow(by: ExactDecimal.unitsPerDigit(fractionDigits: fractionDigits))
        // 9×10¹⁸ units: `ExactDecimal.max`.
        guard !overflow, units <= 9_000_000_000_000_000_000 else { return nil }
        return ExactDecimal(units: negative ? -units : units)
    }

    /// More than 8 decimals (rare): the digits divided down to 10⁻⁸ and rounded half to even. Out of
    /// line, so the common case above stays small enough to inline into every field's read.
    @inline(never)
    private var roundedToScale: ExactDecimal? {
        // At most 18 digits to drop, so the divisor and twice the remainder stay below 2×10¹⁸.
        guard fractionDigits - ExactDecimal.scale <= 18 else { return nil }
        var divisor: Int64 = 1
        for _ in ExactDecimal.scale..<fractionDigits { divisor *= 10 }
        let (quotient, remainder) = mantissa.quotientAndRemainder(dividingBy: divisor)
        let twice = remainder * 2
        let units = twice > divisor || (twice == divisor && quotient % 2 == 1) ? quotient + 1 : quotient
        return ExactDecimal(units: negative ? -units : units)
    }

    /// Integers only: `2868.0`, which JSONDecoder accepts as 2868, is nil here.
    @inline(__always)
    var int64: Int64? {
        guard !hasFraction, significantDigits <= 18 else { return nil }
        return negative ? -mantissa : mantissa
    }
}
