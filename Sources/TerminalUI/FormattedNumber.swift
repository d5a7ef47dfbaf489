import Domain
import TerminalKit

/// A number as the table shows it, rounded and measured but not yet spelled out: the table needs
/// every width to lay out its columns before it draws, and spelling each number into an array first
/// (then copying it into the frame) cost more than the rest of a 1,000-row frame. So the digits are
/// written once, right to left, straight into their cells (`ScreenBuffer.write(_:endingAt:row:style:)`).
///
/// Built from an `ExactDecimal`'s units (or a count), in integers only: no binary float between the
/// broker's digits and the screen. Plain data on purpose (no strings, no arrays): a frame holds 7,000.
struct FormattedNumber: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// `units` with a point `places` from the right, after `sign`, before `suffix`.
        case digits
        /// "—": a count below zero.
        case missing
        /// "closed": an age that would count the hours the market was shut (`QuoteFormatting.ageNumber`).
        case marketClosed
    }

    var kind: Kind
    /// The magnitude scaled by 10^places and rounded.
    var units: UInt64 = 0
    var places: Int = 0
    /// 0 for none, else "+" or "-".
    var sign: UInt32 = 0
    /// 0 for none, else one scalar after the digits ("%", "K", "s", …).
    var suffix: UInt32 = 0
    /// How many cells the number takes.
    private(set) var width: Int = 1

    static let missingScalar: UInt32 = 0x2014  // "—"
    static let missing = FormattedNumber(kind: .missing)
    static let marketClosed: FormattedNumber = {
        var number = FormattedNumber(kind: .marketClosed)
        number.width = closedScalars.count
        return number
    }()
    /// "closed", backwards, as `spellBackwards` puts it.
    private static let closedScalars: [UInt32] = "closed".unicodeScalars.reversed().map(\.value)

    private enum ASCII {
        static let zero: UInt32 = 0x30
        static let dot: UInt32 = 0x2E
        static let minus: UInt32 = 0x2D
        static let plus: UInt32 = 0x2B
    }

    enum Sign {
        /// "-" before a negative value, even one that rounds to zero: `fixed`.
        case whenNegative
        /// "+" or "-" unless the value rounds to zero: `change` and `percent`.
        case unlessZero
    }

    private init(kind: Kind) {
        self.kind = kind
    }

    /// `value` with exactly `decimals` places (0…8, `ExactDecimal`'s own), rounded half away from zero:
    /// `189.845` → `189.85`. Every value in `ExactDecimal`'s range fits (9×10¹⁸ units < 2⁶⁴).
    init(_ value: ExactDecimal, decimals: Int, sign: Sign = .whenNegative, suffix: UInt32 = 0) {
        self.init(kind: .digits)
        let places = max(0, min(decimals, ExactDecimal.scale))
        units = Self.roundedHalfAway(value.units.magnitude, droppingDigits: ExactDecimal.scale - places)
        self.places = places
        let negative = value.units < 0
        self.sign = switch sign {
        case .whenNegative: negative ? ASCII.minus : 0
        case .unlessZero: units == 0 ? 0 : negative ? ASCII.minus : ASCII.plus
        }
        self.suffix = suffix
        width = measure()
    }

    /// `magnitude` without its last `digits` decimal digits (0…8), rounded half away from zero. A case per
    /// count, so each division is by a constant (a multiply and a shift, not dozens of cycles).
    @inline(__always)
    private static func roundedHalfAway(_ magnitude: UInt64, droppingDigits digits: Int) -> UInt64 {
        switch digits {
        case 0: magnitude
        case 1: roundedHalfAway(magnitude, by: 10)
        case 2: roundedHalfAway(magnitude, by: 100)
        case 3: roundedHalfAway(magnitude, by: 1_000)
        case 4: roundedHalfAway(magnitude, by: 10_000)
        case 5: roundedHalfAway(magnitude, by: 100_000)
        case 6: roundedHalfAway(magnitude, by: 1_000_000)
        case 7: roundedHalfAway(magnitude, by: 10_000_000)
        default: roundedHalfAway(magnitude, by: 100_000_000)
        }
    }

    /// `dividend ÷ divisor`, a half or more of the divisor rounding up. `divisor` is even.
    @inline(__always)
    private static func roundedHalfAway(_ dividend: UInt64, by divisor: UInt64) -> UInt64 {
        let quotient = dividend / divisor
        return dividend &- quotient &* divisor >= divisor / 2 ? quotient &+ 1 : quotient
    }

    /// A whole count, then `suffix`.
    init(count: UInt64, suffix: UInt32 = 0) {
        self.init(kind: .digits)
        units = count
        self.suffix = suffix
        width = measure()
    }

    /// `count ÷ unit` with `places` decimals (0 or 1; `unit` a power of ten of at least 10^places),
    /// rounded half away from zero, then `suffix`: 12,345 per 1,000 with one place is "12.3" and "K".
    init(count: UInt64, per unit: UInt64, places: Int, suffix: UInt32) {
        self.init(kind: .digits)
        let divisor = places == 0 ? unit : unit / 10
        let quotient = count / divisor
        units = (count - quotient * divisor) * 2 >= divisor ? quotient + 1 : quotient
        self.places = places
        self.suffix = suffix
        width = measure()
    }

    private func measure() -> Int {
        let affixes = (sign == 0 ? 0 : 1) + (suffix == 0 ? 0 : 1)
        switch kind {
        case .missing:
            return 1
        case .marketClosed:
            return Self.closedScalars.count
        case .digits:
            // Digits of `units`, then as many leading zeros as the places need ("0.05"): no
            // division by a variable power of ten, which costs dozens of cycles per number.
            var digits = 1
            var threshold: UInt64 = 10
            while units >= threshold, digits < 19 {
                digits += 1
                threshold &*= 10
            }
            if units >= threshold { digits = 20 }  // beyond 10¹⁹, where `threshold` stopped
            return affixes + (places > 0 ? max(digits, places + 1) + 1 : digits)
        }
    }

    /// Writes the number's scalars, right to left, through `put`, which is called `width` times.
    @inline(__always)
    func spellBackwards(_ put: (UInt32) -> Void) {
        switch kind {
        case .missing:
            put(Self.missingScalar)
        case .marketClosed:
            for scalar in Self.closedScalars { put(scalar) }
        case .digits:
            if suffix != 0 { put(suffix) }
            var whole = units
            if places > 0 {
                for _ in 0..<places {
                    put(ASCII.zero + UInt32(truncatingIfNeeded: whole % 10))
                    whole /= 10
                }
                put(ASCII.dot)
            }
            repeat {
                put(ASCII.zero + UInt32(truncatingIfNeeded: whole % 10))
                whole /= 10
            } while whole > 0
            if sign != 0 { put(sign) }
        }
    }

    /// The number's scalars, left to right, appended to `out`.
    func append(to out: inout [UInt32]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: width))
        var index = out.count
        out.withUnsafeMutableBufferPointer { out in
            spellBackwards { scalar in
                index -= 1
                out[index] = scalar
            }
        }
        assert(index == start)
    }
}

extension ScreenBuffer {
    /// Writes `number` right-aligned to end just before column `end`, spelling its digits straight into
    /// the cells (right to left, as digits come), clipped to the screen.
    mutating func write(_ number: FormattedNumber, endingAt end: Int, row: Int, style bits: UInt64) {
        writeBackwards(width: number.width, endingAt: end, row: row, style: bits) { put in number.spellBackwards(put) }
    }
}
