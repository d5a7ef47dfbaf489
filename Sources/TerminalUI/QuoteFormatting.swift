import Foundation

/// Numbers and ages as the table shows them. Locale-independent on purpose: a column of prices
/// must line up the same on every machine, and snapshot tests must not depend on the locale.
public enum QuoteFormatting {
    /// Shown where a value is missing or unusable.
    public static let missing = "—"

    /// Decimals for a price: sub-dollar prices need four to show any movement.
    public static func decimals(forPrice price: Double) -> Int {
        abs(price) < 1 && price != 0 ? 4 : 2
    }

    /// "189.84", "0.0123"; "—" for NaN or infinity.
    public static func price(_ value: Double) -> String {
        string(priceNumber(value))
    }

    /// "+1.23", "-0.45", "0.00": always signed unless it rounds to zero.
    public static func change(_ value: Double, decimals: Int = 2) -> String {
        string(changeNumber(value, decimals: decimals))
    }

    /// "+1.23%", "-0.45%", "0.00%".
    public static func percent(_ value: Double) -> String {
        string(percentNumber(value))
    }

    /// "0s", "42s", "3m", "5h", "2d"; "—" without a date. A date in the future (another machine's
    /// clock) counts as now.
    public static func age(since date: Date?, now: Date) -> String {
        string(ageNumber(since: date, now: now))
    }

    /// "950", "12.3K", "1.2M", "3.4B"; "—" for a negative count.
    public static func volume(_ value: Int64) -> String {
        string(volumeNumber(value))
    }

    /// "17,798.36", "-1,250.00": money with thousands separators, two decimals.
    public static func money(_ value: Double) -> String {
        guard value.isFinite else { return missing }
        let plain = fixed(abs(value), decimals: 2)
        let parts = plain.split(separator: ".", maxSplits: 1)
        let whole = Array(parts[0])
        var grouped = ""
        for (index, digit) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        let sign = value < 0 && plain.contains(where: { $0 != "0" && $0 != "." }) ? "-" : ""
        return sign + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }

    /// `value` with exactly `decimals` places. Integer arithmetic (`FormattedNumber`) rather than
    /// `String(format:)`, which costs microseconds per call on Linux and ran for every cell of every frame.
    static func fixed(_ value: Double, decimals: Int) -> String {
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

    static func priceNumber(_ value: Double) -> FormattedNumber {
        FormattedNumber(value, decimals: decimals(forPrice: value))
    }

    static func changeNumber(_ value: Double, decimals: Int = 2) -> FormattedNumber {
        FormattedNumber(value, decimals: decimals, sign: .unlessZero)
    }

    static func percentNumber(_ value: Double) -> FormattedNumber {
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

    private static let volumeUnits: [(threshold: Double, suffix: UInt32)] = [
        (1e12, scalar("T")), (1e9, scalar("B")), (1e6, scalar("M")), (1e3, scalar("K")),
    ]

    static func volumeNumber(_ value: Int64) -> FormattedNumber {
        guard value >= 0 else { return .missing }
        let amount = Double(value)
        for (index, unit) in volumeUnits.enumerated() where amount >= unit.threshold {
            let scaled = amount / unit.threshold
            let number = FormattedNumber(scaled, decimals: scaled < 100 ? 1 : 0, suffix: unit.suffix)
            // 999,950 would round to "1000K"; say "1.0M" instead.
            if number.roundedValue >= 1000, index > 0 {
                let bigger = volumeUnits[index - 1]
                return FormattedNumber(amount / bigger.threshold, decimals: 1, suffix: bigger.suffix)
            }
            return number
        }
        return FormattedNumber(count: UInt64(value))
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
