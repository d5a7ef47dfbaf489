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
        string { appendPrice(value, to: &$0) }
    }

    /// "+1.23", "-0.45", "0.00": always signed unless it rounds to zero.
    public static func change(_ value: Double, decimals: Int = 2) -> String {
        string { appendChange(value, decimals: decimals, to: &$0) }
    }

    /// "+1.23%", "-0.45%", "0.00%".
    public static func percent(_ value: Double) -> String {
        string { appendPercent(value, to: &$0) }
    }

    /// "0s", "42s", "3m", "5h", "2d"; "—" without a date. A date in the future (another machine's
    /// clock) counts as now.
    public static func age(since date: Date?, now: Date) -> String {
        string { appendAge(since: date, now: now, to: &$0) }
    }

    /// "950", "12.3K", "1.2M", "3.4B"; "—" for a negative count.
    public static func volume(_ value: Int64) -> String {
        string { appendVolume(value, to: &$0) }
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

    /// `value` with exactly `decimals` places. Integer arithmetic rather than `String(format:)`, which
    /// costs microseconds per call on Linux and ran for every cell of every frame.
    static func fixed(_ value: Double, decimals: Int) -> String {
        string { appendFixed(value, decimals: decimals, to: &$0) }
    }

    // MARK: Into scalars
    //
    // The table formats a screenful of numbers per frame, so the formatters append Unicode scalar
    // values to one growing array instead of building a String each; the String functions above are
    // these, collected.

    static let missingScalar: UInt32 = 0x2014  // "—"

    private enum ASCII {
        static let zero: UInt32 = 0x30
        static let dot: UInt32 = 0x2E
        static let minus: UInt32 = 0x2D
        static let plus: UInt32 = 0x2B
        static let percent: UInt32 = 0x25
    }

    static func appendPrice(_ value: Double, to out: inout [UInt32]) {
        appendFixed(value, decimals: decimals(forPrice: value), to: &out)
    }

    static func appendChange(_ value: Double, decimals: Int = 2, to out: inout [UInt32]) {
        appendSigned(value, decimals: decimals, suffix: nil, to: &out)
    }

    static func appendPercent(_ value: Double, to out: inout [UInt32]) {
        appendSigned(value, decimals: 2, suffix: ASCII.percent, to: &out)
    }

    static func appendAge(since date: Date?, now: Date, to out: inout [UInt32]) {
        guard let date else {
            out.append(missingScalar)
            return
        }
        let seconds = max(0, Int(now.timeIntervalSince(date).rounded(.down)))
        switch seconds {
        case ..<60: appendDigits(UInt64(seconds), suffix: "s", to: &out)
        case ..<3600: appendDigits(UInt64(seconds / 60), suffix: "m", to: &out)
        case ..<86_400: appendDigits(UInt64(seconds / 3600), suffix: "h", to: &out)
        default: appendDigits(UInt64(seconds / 86_400), suffix: "d", to: &out)
        }
    }

    private static let volumeUnits: [(threshold: Double, suffix: Unicode.Scalar)] = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")]

    static func appendVolume(_ value: Int64, to out: inout [UInt32]) {
        guard value >= 0 else {
            out.append(missingScalar)
            return
        }
        let amount = Double(value)
        for (index, unit) in volumeUnits.enumerated() where amount >= unit.threshold {
            let scaled = amount / unit.threshold
            let places = scaled < 100 ? 1 : 0
            // 999,950 would round to "1000K"; say "1.0M" instead.
            if scaled.rounded(toPlaces: places) >= 1000, index > 0 {
                let bigger = volumeUnits[index - 1]
                appendFixed(amount / bigger.threshold, decimals: 1, to: &out)
                out.append(bigger.suffix.value)
                return
            }
            appendFixed(scaled, decimals: places, to: &out)
            out.append(unit.suffix.value)
            return
        }
        appendDigits(UInt64(value), to: &out)
    }

    private static func appendSigned(_ value: Double, decimals: Int, suffix: UInt32?, to out: inout [UInt32]) {
        appendFixed(value, decimals: decimals, sign: .unlessZero, to: &out)
        if value.isFinite, let suffix { out.append(suffix) }
    }

    static func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt32]) {
        appendFixed(value, decimals: decimals, sign: .whenNegative, to: &out)
    }

    private enum Sign {
        /// "-" before a negative value, even one that rounds to zero: `fixed`.
        case whenNegative
        /// "+" or "-" unless the value rounds to zero: `change` and `percent`.
        case unlessZero
    }

    private static let powersOfTen: [UInt64] = (0...9).map { places in (0..<places).reduce(1) { result, _ in result * 10 } }

    /// The digits are made right to left in a buffer on the stack and appended in one go.
    private static func appendFixed(_ value: Double, decimals: Int, sign: Sign, to out: inout [UInt32]) {
        guard value.isFinite else {
            out.append(missingScalar)
            return
        }
        let places = max(0, min(decimals, 9))
        let factor = powersOfTen[places]
        let scaled = (abs(value) * Double(factor)).rounded()
        let signScalar: UInt32? = switch sign {
        case .whenNegative: value < 0 ? ASCII.minus : nil
        case .unlessZero: scaled == 0 ? nil : value < 0 ? ASCII.minus : ASCII.plus
        }
        guard scaled < 9e15 else {
            if let signScalar { out.append(signScalar) }
            out.append(contentsOf: String(format: "%.\(places)f", abs(value)).unicodeScalars.map(\.value))
            return
        }
        let units = UInt64(scaled)
        // At most a sign, 16 whole digits, a point and 9 decimals.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 32) { buffer in
            var start = buffer.count
            if places > 0 {
                start = prependDigits(units % factor, minimumCount: places, before: start, in: buffer)
                start -= 1
                buffer[start] = ASCII.dot
            }
            start = prependDigits(units / factor, before: start, in: buffer)
            if let signScalar {
                start -= 1
                buffer[start] = signScalar
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// The decimal digits of `value`, then `suffix`.
    private static func appendDigits(_ value: UInt64, suffix: Unicode.Scalar? = nil, to out: inout [UInt32]) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 24) { buffer in
            let start = prependDigits(value, before: buffer.count, in: buffer)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
        if let suffix { out.append(suffix.value) }
    }

    /// Writes the digits of `value`, zero-padded to `minimumCount`, to end just before `end`; returns
    /// where they start.
    private static func prependDigits(
        _ value: UInt64, minimumCount: Int = 1, before end: Int, in buffer: UnsafeMutableBufferPointer<UInt32>
    ) -> Int {
        var start = end
        var remaining = value
        repeat {
            start -= 1
            buffer[start] = ASCII.zero + UInt32(truncatingIfNeeded: remaining % 10)
            remaining /= 10
        } while remaining > 0 || end - start < minimumCount
        return start
    }

    private static func string(_ format: (inout [UInt32]) -> Void) -> String {
        var scalars: [UInt32] = []
        format(&scalars)
        var text = String.UnicodeScalarView()
        for value in scalars {
            text.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(text)
    }
}

extension Double {
    fileprivate func rounded(toPlaces places: Int) -> Double {
        let factor = pow(10, Double(places))
        return (self * factor).rounded() / factor
    }
}
