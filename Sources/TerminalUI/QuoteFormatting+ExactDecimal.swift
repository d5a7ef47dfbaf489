import Domain

extension QuoteFormatting {
    /// "17,798.36", "-1,250.00", "1,234,567.89": an exact amount with thousands separators and two
    /// decimals, rounded half away from zero as the `Double` columns are, with no minus on an amount that
    /// rounds to zero. Exact to the cent: no binary float between the broker's digits and the screen.
    public static func money(_ value: ExactDecimal) -> String {
        let plain = value.formatted(fractionDigits: 2, rule: .toNearestOrAwayFromZero)
        let negative = plain.hasPrefix("-")
        let digits = negative ? plain.dropFirst() : Substring(plain)
        let parts = digits.split(separator: ".", maxSplits: 1)
        let whole = Array(parts[0])
        var grouped = ""
        for (index, digit) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (negative ? "-" : "") + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }
}
