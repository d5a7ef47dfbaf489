extension ExactDecimal {
    /// Reads a decimal from wire or typed text, exactly, without passing through `Double`.
    ///
    /// The grammar is a JSON number's (RFC 8259 §6), nothing more: an optional `-`, an integer part without
    /// leading zeros, an optional `.` and fraction digits, an optional exponent (`e`/`E`, sign, digits):
    /// `"150.25"`, `"-0.0001"`, `"1e2"`, `"1E-8"`, `"17798.360000000000000000000"` (Tradier prints such tails).
    /// Refused (nil): empty text, spaces, `+`, `.5`, `5.`, `007`, `1,000`, `$5`, `NaN`, `Infinity`, hex, and
    /// values beyond ±90,000,000,000.
    ///
    /// Digits beyond the 8th decimal are rounded half to even (`"0.000000015"` → `0.00000002`,
    /// `"0.000000025"` → `0.00000002`), not refused: an average such as Alpaca's `avg_entry_price` is a
    /// quotient that rarely divides evenly and may be printed to more decimals than any price has, and
    /// refusing it would refuse the whole position. Zeros beyond the 8th decimal are exact and never round
    /// anything.
    public init?(parsing text: some StringProtocol) {
        let parsed = text.utf8.withContiguousStorageIfAvailable { Self.parseUnits($0) }
            ?? Self.parseUnits(Array(text.utf8))
        guard let parsed else { return nil }
        self.init(checkedUnits: parsed)
    }

    /// The same reading as `init?(parsing:)`, straight from UTF-8 bytes such as a number token inside a
    /// wire frame: no `String` is made, nothing is allocated.
    public init?(parsingUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let parsed = Self.parseUnits(bytes) else { return nil }
        self.init(checkedUnits: parsed)
    }

    private static let digitZero: UInt8 = 0x30, digitNine: UInt8 = 0x39
    private static let minus: UInt8 = 0x2D, plus: UInt8 = 0x2B, dot: UInt8 = 0x2E
    private static let lowerE: UInt8 = 0x65, upperE: UInt8 = 0x45

    /// Units of the text in `bytes`, or nil. Two passes over a contiguous buffer: the first checks the
    /// grammar and finds the significant digits and the exponent; the second reads only the digits that
    /// land above 10⁻⁸ and rounds on the rest. No allocation, no trap on any input, however long.
    private static func parseUnits(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        let count = bytes.count
        let negative = count > 0 && bytes[0] == minus
        if negative { index += 1 }

        // Integer part: one digit, or more without a leading zero.
        let digitsStart = index
        guard index < count, isDigit(bytes[index]) else { return nil }
        if bytes[index] == digitZero {
            index += 1
            if index < count, isDigit(bytes[index]) { return nil }
        } else {
            while index < count, isDigit(bytes[index]) { index += 1 }
        }
        let integerEnd = index

        // Fraction: a dot needs at least one digit after it.
        var fractionCount = 0
        if index < count, bytes[index] == dot {
            index += 1
            let fractionStart = index
            while index < count, isDigit(bytes[index]) { index += 1 }
            fractionCount = index - fractionStart
            guard fractionCount > 0 else { return nil }
        }
        let digitsEnd = index

        // Exponent, saturated far beyond any value that could fit so a long exponent cannot overflow `Int`.
        var exponent = 0
        if index < count, bytes[index] == lowerE || bytes[index] == upperE {
            index += 1
            var exponentNegative = false
            if index < count, bytes[index] == minus || bytes[index] == plus {
                exponentNegative = bytes[index] == minus
                index += 1
            }
            let exponentStart = index
            while index < count, isDigit(bytes[index]) {
                if exponent < 1_000_000_000 { exponent = exponent * 10 + Int(bytes[index] - digitZero) }
                index += 1
            }
            guard index > exponentStart else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        guard index == count else { return nil }

        // The digits as one sequence (integer then fraction), positions counted without the dot.
        var firstNonzero = -1, lastNonzero = -1, position = 0
        for offset in digitsStart..<digitsEnd where offset != integerEnd {
            if bytes[offset] != digitZero {
                if firstNonzero < 0 { firstNonzero = position }
                lastNonzero = position
            }
            position += 1
        }
        guard firstNonzero >= 0 else { return 0 }

        // Value = significant digits × 10^(pointExponent); in units, × 10^8 more.
        let significantCount = lastNonzero - firstNonzero + 1
        let trailingZeros = position - 1 - lastNonzero
        let unitExponent = exponent - fractionCount + trailingZeros + scale
        // Digits of the units' integer part; beyond 19 it cannot be below 9×10¹⁸.
        let kept = significantCount + unitExponent
        guard kept <= 19 else { return nil }

        var magnitude: UInt64 = 0
        var roundingDigit: UInt8 = 0
        var sticky = false
        if kept > 0 {
            position = 0
            var taken = 0
            for offset in digitsStart..<digitsEnd where offset != integerEnd {
                defer { position += 1 }
                guard position >= firstNonzero else { continue }
                let digit = bytes[offset] - digitZero
                if taken < kept {
                    magnitude = magnitude * 10 + UInt64(digit)
                    taken += 1
                } else {
                    roundingDigit = digit
                    sticky = position < lastNonzero
                    break
                }
            }
            // Whole significant digits followed by zeros (a positive unit exponent).
            for _ in taken..<kept { magnitude *= 10 }
        } else if kept == 0 {
            roundingDigit = bytes[offsetOfDigit(firstNonzero, digitsStart: digitsStart, integerEnd: integerEnd)] - digitZero
            sticky = significantCount > 1
        }
        // kept < 0: below a tenth of a unit, which rounds to zero.

        if roundingDigit > 5 || (roundingDigit == 5 && (sticky || magnitude % 2 == 1)) {
            magnitude += 1
        }
        guard magnitude <= UInt64(maxUnits) else { return nil }
        return negative ? -Int64(magnitude) : Int64(magnitude)
    }

    private static func parseUnits(_ bytes: [UInt8]) -> Int64? {
        bytes.withUnsafeBufferPointer { parseUnits($0) }
    }

    /// Byte offset of the digit at `position` in the dot-free digit sequence.
    private static func offsetOfDigit(_ position: Int, digitsStart: Int, integerEnd: Int) -> Int {
        let offset = digitsStart + position
        return offset >= integerEnd ? offset + 1 : offset
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= digitZero && byte <= digitNine
    }
}
