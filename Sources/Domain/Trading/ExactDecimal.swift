/// An exact decimal number for money and quantities: a signed count of hundred-millionths (10⁻⁸).
///
/// Why this shape: an `Int64` of 10⁻⁸ units is eight bytes with no heap, adds and compares as fast as an
/// integer, and holds every price and quantity the brokers send: cents and the 1/100-cent ticks below $1
/// (4 decimals), Alpaca's fractional shares and crypto prices and sizes (8 decimals, e.g. `"0.0831"`).
/// Products and quotients go through `Int128`, whose 38 digits hold the 16-decimal product of any two
/// values before it is brought back to 8 decimals, so nothing passes through binary floating point.
/// `Foundation.Decimal` would also be exact, but it is larger (20 bytes), slower, and its operators give no
/// overflow report; `Double` cannot even hold 0.1.
///
/// The range is ±90,000,000,000 (`ExactDecimal.max`), a little under `Int64`'s ±92.2 billion, chosen so that
/// rounding to fewer decimals can never leave the range (9×10¹⁸ units is a multiple of every power of ten
/// up to 10⁸), so `rounded(toScale:rule:)` and negation are total. Ninety billion dollars is far beyond any
/// account or order this program shows; anything larger from outside is refused, never wrapped.
///
/// Outside text goes through `init?(parsing:)`, which returns nil for anything it cannot read exactly (see
/// there). Arithmetic on values from outside uses the throwing forms (`adding(_:)`, `multiplied(by:rounding:)`,
/// …) whose `ArithmeticError` names the operands; the operators `+ - *` trap on overflow like `Int`'s and
/// are for values already bounded, e.g. by an order's validation.
public struct ExactDecimal: Sendable, Hashable, Comparable {
    /// The value in units of 10⁻⁸: `150.25` is `15_025_000_000`.
    public let units: Int64

    // The constants and `init(units:)` are inlinable: decoders and the table build a value per price on
    // their hot paths, where a call into Domain (and a global's accessor) per value showed in the profile.

    /// Fractional digits held: every value is a whole number of 10⁻⁸.
    @inlinable public static var scale: Int { 8 }
    /// 10⁸: units per whole one.
    @inlinable public static var unitsPerOne: Int64 { 100_000_000 }
    /// Units that one unit of a decimal's last digit is worth, for 0…8 fraction digits (1 for 8 and more:
    /// a reader rounds longer fractions itself). A switch, as a static array costs a lazy-initialization
    /// check per use; the byte-level decoders read a price with it.
    @inlinable @inline(__always)
    public static func unitsPerDigit(fractionDigits: Int) -> Int64 {
        switch fractionDigits {
        case 0: 100_000_000
        case 1: 10_000_000
        case 2: 1_000_000
        case 3: 100_000
        case 4: 10_000
        case 5: 1_000
        case 6: 100
        case 7: 10
        default: 1
        }
    }

    /// The largest magnitude in units, 9×10¹⁸ (see the type's comment for why not `Int64.max`).
    @inlinable static var maxUnits: Int64 { 9_000_000_000_000_000_000 }

    /// 90,000,000,000: the largest value; the smallest is its negation.
    public static let max = ExactDecimal(checkedUnits: maxUnits)
    public static let zero = ExactDecimal(checkedUnits: 0)

    /// A value from its 10⁻⁸ units. Traps when `units` is outside ±9×10¹⁸, like `Int8(300)`; for values a
    /// program makes itself (constants, tests), never for values read from outside.
    @inlinable
    public init(units: Int64) {
        precondition(Self.isInRange(units), "ExactDecimal units \(units) outside ±\(Self.maxUnits)")
        self.units = units
    }

    /// A whole number. Traps outside ±90,000,000,000, like `Int8(300)`: for constants and counts the
    /// program makes, not for text from outside (`init?(parsing:)` is for that).
    public init(_ int: Int) {
        precondition(int >= -90_000_000_000 && int <= 90_000_000_000, "ExactDecimal(\(int)) outside ±90000000000")
        self.units = Int64(int) * Self.unitsPerOne
    }

    /// Only for units already known to be in range.
    init(checkedUnits units: Int64) {
        self.units = units
    }

    /// Units in `Int128` if they fit the range, nil otherwise.
    static func inRange(_ units: Int128) -> ExactDecimal? {
        guard units >= -Int128(maxUnits) && units <= Int128(maxUnits) else { return nil }
        return ExactDecimal(checkedUnits: Int64(units))
    }

    @inlinable
    static func isInRange(_ units: Int64) -> Bool {
        units >= -maxUnits && units <= maxUnits
    }

    public var isZero: Bool { units == 0 }
    public var isNegative: Bool { units < 0 }
    public var isPositive: Bool { units > 0 }
    /// The absolute value; always in range because the range is symmetric.
    public var magnitude: ExactDecimal { ExactDecimal(checkedUnits: abs(units)) }
    /// True when the value has no fractional part (a whole number of shares).
    public var isWholeNumber: Bool { units % Self.unitsPerOne == 0 }

    public static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
        lhs.units < rhs.units
    }

    public static prefix func - (value: ExactDecimal) -> ExactDecimal {
        ExactDecimal(checkedUnits: -value.units)
    }
}

extension ExactDecimal: ExpressibleByIntegerLiteral {
    /// `let shares: ExactDecimal = 100`. A literal outside ±90,000,000,000 traps, as with `init(_:)`.
    public init(integerLiteral value: Int) {
        self.init(value)
    }
}

extension ExactDecimal: CustomStringConvertible {
    /// The fewest digits that say the value exactly, in plain notation: `"150.25"`, `"-0.5"`, `"10"`,
    /// `"0.00000001"`. `init?(parsing:)` reads it back to the same value.
    public var description: String {
        Self.plainText(units: units, fractionDigits: nil)
    }

    /// Digits of `units` with exactly `fractionDigits` decimals (`nil`: the fewest that are exact). The
    /// caller has rounded to that many digits already.
    static func plainText(units: Int64, fractionDigits: Int?) -> String {
        let magnitude = units.magnitude
        let whole = magnitude / UInt64(unitsPerOne)
        var fraction = magnitude % UInt64(unitsPerOne)
        var digits = scale
        if let fractionDigits {
            for _ in fractionDigits..<scale { fraction /= 10 }
            digits = fractionDigits
        } else {
            if fraction == 0 { digits = 0 }
            while digits > 0 && fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
        }
        var text = units < 0 ? "-" : ""
        text += String(whole)
        if digits > 0 {
            let fractionText = String(fraction)
            text += "."
            text += String(repeating: "0", count: digits - fractionText.count)
            text += fractionText
        }
        return text
    }
}
