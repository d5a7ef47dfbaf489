import Domain
import Foundation

/// Numbers and ages as the table shows them. Locale-independent on purpose: a column of prices
/// must line up the same on every machine, and snapshot tests must not depend on the locale. Prices,
/// changes and amounts are exact decimals, rounded for the screen half away from zero.
public enum QuoteFormatting {
    /// Shown where a value is missing or unusable.
    public static let missing = "—"

    /// Decimals for a price: sub-dollar prices need four to show any movement.
    public static func decimals(forPrice price: ExactDecimal) -> Int {
        price.units.magnitude < UInt64(ExactDecimal.unitsPerOne) && !price.isZero ? 4 : 2
    }

    /// "189.84", "0.0123".
    public static func price(_ value: ExactDecimal) -> String {
        string(priceNumber(value))
    }

    /// "+1.23", "-0.45", "0.00": always signed unless it rounds to zero.
    public static func change(_ value: ExactDecimal, decimals: Int = 2) -> String {
        string(changeNumber(value, decimals: decimals))
    }

    /// "+1.23%", "-0.45%", "0.00%".
    public static func percent(_ value: ExactDecimal) -> String {
        string(percentNumber(value))
    }

    /// "0s", "42s", "3m", "5h", "2d"; "—" without a date. A date in the future (another machine's
    /// clock) counts as now.
    public static func age(since date: Date?, now: Date) -> String {
        string(ageNumber(since: date, now: now))
    }

    /// As `age(since:now:)`, but "closed" for a price of `symbol` from the session that ended last while
    /// the market is closed (`MarketState.isFromClosedSession`): "14h" at night would only count the hours
    /// the exchange was shut. Symbols quoted around the clock (`BTC/USD`) keep counting.
    public static func age(since date: Date?, now: Date, symbol: String, market: MarketState?) -> String {
        guard let date else { return missing }
        return string(ageNumber(since: date, now: now, symbol: symbol, market: market))
    }

    /// "950", "12.3K", "1.2M", "3.4B"; "—" for a negative count.
    public static func volume(_ value: Int64) -> String {
        string(volumeNumber(value))
    }

    /// "17,798.36", "-1,250.00", "1,234,567.89": an amount with thousands separators and two decimals, with
    /// no minus on an amount that rounds to zero. Exact to the cent.
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

    /// `value` with exactly `decimals` places (0…8), "-" before any negative value. Integer arithmetic
    /// (`FormattedNumber`) rather than `String(format:)`, which costs microseconds per call on Linux.
    static func fixed(_ value: ExactDecimal, decimals: Int) -> String {
        string(FormattedNumber(value, decimals: decimals))
    }

    // MARK: As numbers
    //
    // The table measures a screenful of numbers per frame, then writes their digits straight into
    // the frame, so these make `FormattedNumber`s rather than strings; the String functions above
    // are these, spelled out.

    static let missingScalar = FormattedNumber.missingScalar

    private enum ASCII {
        static let percent: UInt32 = 0x25
    }

    static func priceNumber(_ value: ExactDecimal) -> FormattedNumber {
        FormattedNumber(value, decimals: decimals(forPrice: value))
    }

    static func changeNumber(_ value: ExactDecimal, decimals: Int = 2) -> FormattedNumber {
        FormattedNumber(value, decimals: decimals, sign: .unlessZero)
    }

    static func percentNumber(_ value: ExactDecimal) -> FormattedNumber {
        FormattedNumber(value, decimals: 2, sign: .unlessZero, suffix: ASCII.percent)
    }

    static func ageNumber(since date: Date?, now: Date) -> FormattedNumber {
        guard let date else { return .missing }
        let seconds = UInt64(max(0, Int(now.timeIntervalSince(date).rounded(.down))))
        switch seconds {
        case ..<60: return FormattedNumber(count: seconds, suffix: scalar("s"))
        case ..<3600: return FormattedNumber(count: seconds / 60, suffix: scalar("m"))
        case ..<86_400: return FormattedNumber(count: seconds / 3600, suffix: scalar("h"))
        default: return FormattedNumber(count: seconds / 86_400, suffix: scalar("d"))
        }
    }

    static func ageNumber(since date: Date, now: Date, symbol: String, market: MarketState?) -> FormattedNumber {
        if let market, market.isClosingPrice(of: symbol, at: date) { return .marketClosed }
        return ageNumber(since: date, now: now)
    }

    private static let volumeUnits: [(threshold: UInt64, suffix: UInt32)] = [
        (1_000_000_000_000, scalar("T")), (1_000_000_000, scalar("B")), (1_000_000, scalar("M")), (1_000, scalar("K")),
    ]

    /// One decimal below 100 of a unit ("12.3K"), none from 100 ("240M"), in integers.
    static func volumeNumber(_ value: Int64) -> FormattedNumber {
        guard value >= 0 else { return .missing }
        let count = UInt64(value)
        for (index, unit) in volumeUnits.enumerated() where count >= unit.threshold {
            let places = count < 100 * unit.threshold ? 1 : 0
            let number = FormattedNumber(count: count, per: unit.threshold, places: places, suffix: unit.suffix)
            // 999,950 would round to "1000K"; say "1.0M" instead.
            if number.units >= (places == 0 ? 1_000 : 10_000), index > 0 {
                let bigger = volumeUnits[index - 1]
                return FormattedNumber(count: count, per: bigger.threshold, places: 1, suffix: bigger.suffix)
            }
            return number
        }
        return FormattedNumber(count: count)
    }

    private static func scalar(_ character: Unicode.Scalar) -> UInt32 {
        character.value
    }

    private static func string(_ number: FormattedNumber) -> String {
        var scalars: [UInt32] = []
        number.append(to: &scalars)
        var text = String.UnicodeScalarView()
        for value in scalars {
            text.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(text)
    }
}
