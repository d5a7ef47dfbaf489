/// The smallest step an order's price may take, by price level.
///
/// US equities, `PriceIncrement.usEquities` (SEC Regulation NMS Rule 612, the "sub-penny rule"): an
/// order priced at $1.00 or more is priced in whole cents ($0.01); below $1.00, in hundredths of a cent
/// ($0.0001, 4 decimals). So `150.25` and `0.1234` are valid limit prices, `150.255` and `0.12345` are
/// not. The rule is about order prices; trades and quotes may print finer (midpoint executions), which
/// is why fill prices are never checked against it.
public struct PriceIncrement: Sendable, Hashable {
    /// Prices at or above this use `decimalsAtOrAbove`, below it `decimalsBelow`.
    public let boundary: ExactDecimal
    public let decimalsAtOrAbove: Int
    public let decimalsBelow: Int

    public init(boundary: ExactDecimal, decimalsAtOrAbove: Int, decimalsBelow: Int) {
        precondition((0...ExactDecimal.scale).contains(decimalsAtOrAbove) && (0...ExactDecimal.scale).contains(decimalsBelow))
        self.boundary = boundary
        self.decimalsAtOrAbove = decimalsAtOrAbove
        self.decimalsBelow = decimalsBelow
    }

    /// Cents from $1.00 up, hundredths of a cent below (Rule 612).
    public static let usEquities = PriceIncrement(boundary: 1, decimalsAtOrAbove: 2, decimalsBelow: 4)

    /// Decimals allowed at `price`'s level (judged by its magnitude).
    public func decimals(at price: ExactDecimal) -> Int {
        price.magnitude >= boundary ? decimalsAtOrAbove : decimalsBelow
    }

    /// The step at `price`'s level: `0.01` for `150.25`, `0.0001` for `0.5`.
    public func tick(at price: ExactDecimal) -> ExactDecimal {
        ExactDecimal(units: ExactDecimal.powerOfTen(ExactDecimal.scale - decimals(at: price)))
    }

    /// True when `price` is a whole number of ticks at its level.
    public func isValid(_ price: ExactDecimal) -> Bool {
        price.significantFractionDigits <= decimals(at: price)
    }

    /// `price` moved onto a tick by `rule`. The result is always valid: rounding below $1.00 to 4 decimals
    /// can only reach `1.0000`, which is a whole cent.
    public func rounded(_ price: ExactDecimal, rule: FloatingPointRoundingRule = .toNearestOrEven) -> ExactDecimal {
        price.rounded(toScale: decimals(at: price), rule: rule)
    }
}
