import Foundation
import TerminalKit

/// A number as the table shows it, rounded and measured but not yet spelled out: the table needs
/// every width to lay out its columns before it draws, and spelling each number into an array first
/// (then copying it into the frame) cost more than the rest of a 1,000-row frame. So the digits are
/// written once, right to left, straight into their cells (`ScreenBuffer.write(_:endingAt:row:style:)`).
///
/// Plain data on purpose (no strings, no arrays): a frame holds 7,000 of them.
struct FormattedNumber: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// `units` with a point `places` from the right, after `sign`, before `suffix`.
        case digits
        /// "—": not finite, or a count below zero.
        case missing
        /// Beyond what `units` holds (≥ 9e15 once scaled): spelled by `String(format:)`, as rare as it is slow.
        case huge
    }

    var kind: Kind
    /// The value scaled by 10^places and rounded.
    var units: UInt64 = 0
    var places: Int = 0
    /// 0 for none, else "+" or "-".
    var sign: UInt32 = 0
    /// 0 for none, else one scalar after the digits ("%", "K", "s", …).
    var suffix: UInt32 = 0
    /// `abs(value)` of a `huge` number.
    var magnitude: Double = 0
    /// How many cells the number takes.
    private(set) var width: Int = 1

    static let missingScalar: UInt32 = 0x2014  // "—"
    static let missing = FormattedNumber(kind: .missing)

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

    /// 10^places for 0...9: a switch, as a static array costs a lazy-initialization check per use.
    @inline(__always)
    private static func powerOfTen(_ places: Int) -> UInt64 {
        switch places {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        default: 1_000_000_000
        }
    }

    private init(kind: Kind) {
        self.kind = kind
    }

    /// `value` with exactly `decimals` places (at most 9); `suffix` only when the value is finite.
    init(_ value: Double, decimals: Int, sign: Sign = .whenNegative, suffix: UInt32 = 0) {
        guard value.isFinite else {
            self = .missing
            return
        }
        let places = max(0, min(decimals, 9))
        let magnitude = abs(value) * Double(Self.powerOfTen(places))
        if magnitude < 9e15 {
            self.init(kind: .digits)
            units = Self.roundedHalfAway(magnitude)
        } else {
            self.init(kind: .huge)
            self.magnitude = abs(value)
        }
        self.places = places
        self.sign = switch sign {
        case .whenNegative: value < 0 ? ASCII.minus : 0
        case .unlessZero: kind == .digits && units == 0 ? 0 : value < 0 ? ASCII.minus : ASCII.plus
        }
        self.suffix = suffix
        width = measure()
    }

    /// `x.rounded()` (half away from zero) for 0 ≤ x < 2^53, without the call into libm it costs
    /// per number: below 2^52 a double's fraction is exact, and above it there is none.
    @inline(__always)
    private static func roundedHalfAway(_ x: Double) -> UInt64 {
        let whole = UInt64(x)
        return x - Double(whole) >= 0.5 ? whole + 1 : whole
    }

    /// A whole count, then `suffix`.
    init(count: UInt64, suffix: UInt32 = 0) {
        self.init(kind: .digits)
        units = count
        self.suffix = suffix
        width = measure()
    }

    /// `units` rounded to its places, in the value's own scale: what the volume column checks
    /// before calling 999,950 "1000K".
    var roundedValue: Double {
        Double(units) / Double(Self.powerOfTen(places))
    }

    private func measure() -> Int {
        let affixes = (sign == 0 ? 0 : 1) + (suffix == 0 ? 0 : 1)
        switch kind {
        case .missing:
            return 1
        case .huge:
            return affixes + hugeDigits.count
        case .digits:
            // Digits of `units`, then as many leading zeros as the places need ("0.05"): no
            // division by a variable power of ten, which costs dozens of cycles per number.
            var digits = 1
            var threshold: UInt64 = 10
            while units >= threshold, digits < 19 {
                digits += 1
                threshold &*= 10
            }
            return affixes + (places > 0 ? max(digits, places + 1) + 1 : digits)
        }
    }

    private var hugeDigits: [UInt32] {
        String(format: "%.\(places)f", magnitude).unicodeScalars.map(\.value)
    }

    /// Writes the number's scalars, right to left, through `put`, which is called `width` times.
    @inline(__always)
    func spellBackwards(_ put: (UInt32) -> Void) {
        switch kind {
        case .missing:
            put(Self.missingScalar)
        case .huge:
            if suffix != 0 { put(suffix) }
            for scalar in hugeDigits.reversed() { put(scalar) }
            if sign != 0 { put(sign) }
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
