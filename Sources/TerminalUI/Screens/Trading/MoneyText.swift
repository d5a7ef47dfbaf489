import Domain

/// Exact amounts as the trading screens print them: thousands grouped, a fixed number of decimals, and a
/// sign where the direction matters (P&L).
enum MoneyText {
    /// "1,901.30", "-12.50", "+9.30" with `signed`.
    static func format(_ value: ExactDecimal, decimals: Int = 2, signed: Bool = false) -> String {
        let plain = value.magnitude.formatted(fractionDigits: decimals, rule: .toNearestOrAwayFromZero)
        let parts = plain.split(separator: ".", maxSplits: 1)
        let whole = Array(parts[0])
        var grouped = ""
        for (index, digit) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        if parts.count > 1 { grouped += "." + parts[1] }
        let isZero = value.rounded(toScale: decimals, rule: .toNearestOrAwayFromZero).isZero
        let sign = value.isNegative && !isZero ? "-" : (signed && !isZero ? "+" : "")
        return sign + grouped
    }

    /// A price with the decimals it trades in: cents from $1.00, 4 decimals below.
    static func price(_ value: ExactDecimal) -> String {
        format(value, decimals: max(PriceIncrement.usEquities.decimals(at: value), min(value.significantFractionDigits, 4)))
    }

    /// "12.5%", "+0.49%".
    static func percent(_ value: ExactDecimal, signed: Bool = true) -> String {
        format(value, decimals: 2, signed: signed) + "%"
    }
}
