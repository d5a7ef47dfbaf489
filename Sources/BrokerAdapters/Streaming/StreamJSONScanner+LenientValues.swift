import Domain

extension StreamJSONScanner {
    /// A number sent as a JSON number or as a string holding one: Tradier's stream sends trade prices,
    /// sizes and dates as strings and quote prices as numbers (reference §0, §1.5), and Finnhub may do
    /// either. nil (value skipped) for any other value, or a string that is not a plain JSON number
    /// (escapes, `NaN`, empty) or beyond ±90,000,000,000. The string's bytes are read in place, without
    /// building a `String`, and exactly (`exactDecimal()`).
    mutating func numericExactDecimal() throws(Failure) -> ExactDecimal? {
        guard let inner = try numericText() else { return try exactDecimal() }
        var number = StreamJSONScanner(inner)
        guard let value = try? number.exactDecimal(), number.isAtEnd else { return nil }
        return value
    }

    /// An integer sent as a JSON number or as a string holding one (epoch-millisecond dates, volumes).
    mutating func numericInt64() throws(Failure) -> Int64? {
        guard let inner = try numericText() else { return try int64() }
        var number = StreamJSONScanner(inner)
        guard let value = try? number.int64(), number.isAtEnd else { return nil }
        return value
    }

    /// The bytes between the quotes if a string comes next (then consumed); nil, consuming nothing, for
    /// any other value.
    private mutating func numericText() throws(Failure) -> UnsafeBufferPointer<UInt8>? {
        guard peek() == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        try skipValue()
        // `skipValue` stops just past the closing quote.
        return UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)])
    }
}

extension StreamJSONScanner {
    /// Skips a value a decoder has no use for, where `skipValue` would be too lenient for the frame's
    /// whole text: a bare word must be `true`, `false` or `null` and a number must be well-formed, so a
    /// frame of garbage such as `nope` throws instead of counting as "no events".
    mutating func skipWholeValue() throws(Failure) {
        guard let first = peek() else { throw Failure(offset: index, reason: "expected a value") }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""):
            try skipValue()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try exactDecimal()
        default:
            let start = index
            try skipValue()
            let word = UnsafeBufferPointer(rebasing: bytes[start..<index])
            guard word.elementsEqual("true".utf8) || word.elementsEqual("false".utf8) || word.elementsEqual("null".utf8) else {
                throw Failure(offset: start, reason: "expected a value")
            }
        }
    }
}
