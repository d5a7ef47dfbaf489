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
        fixed(value, decimals: decimals(forPrice: value))
    }

    /// "+1.23", "-0.45", "0.00": always signed unless it rounds to zero.
    public static func change(_ value: Double, decimals: Int = 2) -> String {
        signed(value, decimals: decimals, suffix: "")
    }

    /// "+1.23%", "-0.45%", "0.00%".
    public static func percent(_ value: Double) -> String {
        signed(value, decimals: 2, suffix: "%")
    }

    /// "0s", "42s", "3m", "5h", "2d"; "—" without a date. A date in the future (another machine's
    /// clock) counts as now.
    public static func age(since date: Date?, now: Date) -> String {
        guard let date else { return missing }
        let seconds = max(0, Int(now.timeIntervalSince(date).rounded(.down)))
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3600)h"
        default: return "\(seconds / 86_400)d"
        }
    }

    /// "950", "12.3K", "1.2M", "3.4B"; "—" for a negative count.
    public static func volume(_ value: Int64) -> String {
        guard value >= 0 else { return missing }
        let units: [(threshold: Double, suffix: String)] = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")]
        let amount = Double(value)
        for (index, unit) in units.enumerated() where amount >= unit.threshold {
            let scaled = amount / unit.threshold
            let places = scaled < 100 ? 1 : 0
            // 999,950 would round to "1000K"; say "1.0M" instead.
            if scaled.rounded(toPlaces: places) >= 1000, index > 0 {
                let bigger = units[index - 1]
                return fixed(amount / bigger.threshold, decimals: 1) + bigger.suffix
            }
            return fixed(scaled, decimals: places) + unit.suffix
        }
        return String(value)
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

    private static func signed(_ value: Double, decimals: Int, suffix: String) -> String {
        guard value.isFinite else { return missing }
        let magnitude = fixed(abs(value), decimals: decimals)
        let roundsToZero = magnitude.allSatisfy { $0 == "0" || $0 == "." }
        if roundsToZero { return magnitude + suffix }
        return (value < 0 ? "-" : "+") + magnitude + suffix
    }

    /// `value` with exactly `decimals` places. Integer arithmetic rather than `String(format:)`, which
    /// costs microseconds per call on Linux and ran for every cell of every frame.
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return missing }
        let places = max(0, min(decimals, 9))
        var factor: Int64 = 1
        for _ in 0..<places { factor *= 10 }
        let scaled = (abs(value) * Double(factor)).rounded()
        guard scaled < 9e15 else { return String(format: "%.\(places)f", value) }
        let units = Int64(scaled)
        var text = value < 0 ? "-" : ""
        text += String(units / factor)
        if places > 0 {
            let fraction = String(units % factor)
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }
}

extension Double {
    fileprivate func rounded(toPlaces places: Int) -> Double {
        let factor = pow(10, Double(places))
        return (self * factor).rounded() / factor
    }
}
