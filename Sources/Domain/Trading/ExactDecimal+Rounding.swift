extension ExactDecimal {
    /// The value rounded to `scale` decimals (0…8) by `rule`: `150.255` to scale 2 is `150.26` with
    /// `.toNearestOrAwayFromZero` and `150.26` with `.toNearestOrEven` (…5 goes to the even digit 6);
    /// `150.245` gives `150.25` and `150.24` respectively. Never leaves the range (see the type's comment).
    public func rounded(toScale scale: Int, rule: FloatingPointRoundingRule = .toNearestOrEven) -> ExactDecimal {
        precondition((0...Self.scale).contains(scale), "scale \(scale) outside 0…\(Self.scale)")
        let step = Self.powerOfTen(Self.scale - scale)
        let steps = Self.divide(Int128(units), by: Int128(step), rule: rule)
        return ExactDecimal(checkedUnits: Int64(steps) * step)
    }

    /// Text with exactly `fractionDigits` decimals (0…8), rounded by `rule`: `150.5` → `"150.50"`,
    /// `-0.004` → `"0.00"` at 2 digits (no minus on a rounded zero). For money columns and tickets.
    public func formatted(fractionDigits: Int, rule: FloatingPointRoundingRule = .toNearestOrEven) -> String {
        let rounded = rounded(toScale: fractionDigits, rule: rule)
        return Self.plainText(units: rounded.units, fractionDigits: fractionDigits)
    }

    /// Decimals needed to write the value exactly: `150.25` → 2, `10` → 0, `0.00000001` → 8.
    public var significantFractionDigits: Int {
        var fraction = units.magnitude % UInt64(Self.unitsPerOne)
        guard fraction != 0 else { return 0 }
        var digits = Self.scale
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        return digits
    }

    static func powerOfTen(_ exponent: Int) -> Int64 {
        var power: Int64 = 1
        for _ in 0..<exponent { power *= 10 }
        return power
    }
}
