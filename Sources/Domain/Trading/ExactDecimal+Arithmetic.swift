extension ExactDecimal {
    /// Why an operation on outside values has no result. The description names the operation and its
    /// operands, e.g. `"150.25 × 1000000000 is beyond ±90000000000"`.
    public enum ArithmeticError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The exact result is beyond ±90,000,000,000; `expression` shows the operation.
        case overflow(expression: String)
        /// `expression` divides by zero.
        case divisionByZero(expression: String)

        public var description: String {
            switch self {
            case .overflow(let expression): "\(expression) is beyond ±90000000000"
            case .divisionByZero(let expression): "\(expression) divides by zero"
            }
        }
    }

    /// `self + other`, or `.overflow`.
    public func adding(_ other: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
        // Both operands are within ±9×10¹⁸, so the Int64 sum cannot wrap; only the range can be left.
        guard let sum = Self.inRange(Int128(units) + Int128(other.units)) else {
            throw .overflow(expression: "\(self) + \(other)")
        }
        return sum
    }

    /// `self - other`, or `.overflow`.
    public func subtracting(_ other: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
        guard let difference = Self.inRange(Int128(units) - Int128(other.units)) else {
            throw .overflow(expression: "\(self) - \(other)")
        }
        return difference
    }

    /// `self × other` brought back to 8 decimals by `rule`, or `.overflow`. Exact whenever the operands'
    /// decimals add up to 8 or fewer (a 4-decimal price times whole shares always is).
    public func multiplied(
        by other: ExactDecimal, rounding rule: FloatingPointRoundingRule = .toNearestOrEven
    ) throws(ArithmeticError) -> ExactDecimal {
        // |units| ≤ 9×10¹⁸ each, so the product ≤ 8.1×10³⁷ fits Int128 (max ≈ 1.7×10³⁸).
        let product = Int128(units) * Int128(other.units)
        guard let result = Self.inRange(Self.divide(product, by: Int128(Self.unitsPerOne), rule: rule)) else {
            throw .overflow(expression: "\(self) × \(other)")
        }
        return result
    }

    /// `self ÷ other` to 8 decimals by `rule`, or `.divisionByZero` / `.overflow`.
    public func divided(
        by other: ExactDecimal, rounding rule: FloatingPointRoundingRule = .toNearestOrEven
    ) throws(ArithmeticError) -> ExactDecimal {
        guard other.units != 0 else { throw .divisionByZero(expression: "\(self) ÷ \(other)") }
        // |units| × 10⁸ ≤ 9×10²⁶ fits Int128.
        let quotient = Self.divide(Int128(units) * Int128(Self.unitsPerOne), by: Int128(other.units), rule: rule)
        guard let result = Self.inRange(quotient) else {
            throw .overflow(expression: "\(self) ÷ \(other)")
        }
        return result
    }

    /// `self × factor ÷ divisor` to 8 decimals by `rule`, in one exact step: a percent (`factor` 100) or
    /// basis points (10,000) of `divisor` rounded once, where `multiplied(by:)` then `divided(by:)` would
    /// round twice. `factor` is within ±1,000,000,000. Throws `.divisionByZero` / `.overflow`.
    public func ratio(
        to divisor: ExactDecimal, times factor: Int, rounding rule: FloatingPointRoundingRule = .toNearestOrEven
    ) throws(ArithmeticError) -> ExactDecimal {
        precondition(factor.magnitude <= 1_000_000_000, "ratio factor \(factor) beyond ±1000000000")
        guard divisor.units != 0 else { throw .divisionByZero(expression: "\(self) × \(factor) ÷ \(divisor)") }
        // |units| × 10⁹ × 10⁸ ≤ 9×10³⁵ fits Int128.
        let numerator = Int128(units) * Int128(factor) * Int128(Self.unitsPerOne)
        guard let result = Self.inRange(Self.divide(numerator, by: Int128(divisor.units), rule: rule)) else {
            throw .overflow(expression: "\(self) × \(factor) ÷ \(divisor)")
        }
        return result
    }

    /// Halfway between `a` and `b` (a mid price), to 8 decimals half to even. Total: the average of two
    /// values in range is in range, and the sum is taken in `Int128`, so it cannot overflow.
    public static func midpoint(_ a: ExactDecimal, _ b: ExactDecimal) -> ExactDecimal {
        ExactDecimal(checkedUnits: Int64(divide(Int128(a.units) + Int128(b.units), by: 2, rule: .toNearestOrEven)))
    }

    /// Sum; traps on overflow like `Int`'s `+`. For values already bounded; `adding(_:)` for the rest.
    public static func + (lhs: ExactDecimal, rhs: ExactDecimal) -> ExactDecimal {
        do { return try lhs.adding(rhs) } catch { preconditionFailure(error.description) }
    }

    /// Difference; traps on overflow like `Int`'s `-`. For values already bounded; `subtracting(_:)` for the rest.
    public static func - (lhs: ExactDecimal, rhs: ExactDecimal) -> ExactDecimal {
        do { return try lhs.subtracting(rhs) } catch { preconditionFailure(error.description) }
    }

    /// Product rounded half to even; traps on overflow like `Int`'s `*`. For values already bounded;
    /// `multiplied(by:rounding:)` for the rest.
    public static func * (lhs: ExactDecimal, rhs: ExactDecimal) -> ExactDecimal {
        do { return try lhs.multiplied(by: rhs) } catch { preconditionFailure(error.description) }
    }

    public static func += (lhs: inout ExactDecimal, rhs: ExactDecimal) {
        lhs = lhs + rhs
    }

    public static func -= (lhs: inout ExactDecimal, rhs: ExactDecimal) {
        lhs = lhs - rhs
    }

    /// `numerator ÷ divisor` as an integer, rounded by `rule`. `divisor` is not zero.
    static func divide(_ numerator: Int128, by divisor: Int128, rule: FloatingPointRoundingRule) -> Int128 {
        let quotient = numerator / divisor
        let remainder = numerator % divisor
        guard remainder != 0 else { return quotient }
        // The exact result lies between `quotient` and the next integer away from zero, on `direction`'s side.
        let direction: Int128 = (numerator < 0) != (divisor < 0) ? -1 : 1
        let away = quotient + direction
        let twiceRemainder = remainder.magnitude * 2
        let divisorMagnitude = divisor.magnitude
        switch rule {
        case .towardZero: return quotient
        case .awayFromZero: return away
        case .down: return direction < 0 ? away : quotient
        case .up: return direction > 0 ? away : quotient
        case .toNearestOrAwayFromZero: return twiceRemainder >= divisorMagnitude ? away : quotient
        case .toNearestOrEven:
            if twiceRemainder != divisorMagnitude { return twiceRemainder > divisorMagnitude ? away : quotient }
            return quotient % 2 == 0 ? quotient : away
        @unknown default:
            // A rule added to the standard library after this was written: the banker's rule, as documented
            // for the defaults here, is the safest reading.
            if twiceRemainder != divisorMagnitude { return twiceRemainder > divisorMagnitude ? away : quotient }
            return quotient % 2 == 0 ? quotient : away
        }
    }
}
