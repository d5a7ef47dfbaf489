import Domain

/// What the paper broker charges per order: so much per share, at least a minimum (the shape of most US
/// per-share schedules; both come from the config).
public struct CommissionSchedule: Sendable, Hashable, Codable {
    public var perShare: ExactDecimal
    public var minimumPerOrder: ExactDecimal

    public init(perShare: ExactDecimal, minimumPerOrder: ExactDecimal) {
        self.perShare = perShare
        self.minimumPerOrder = minimumPerOrder
    }

    public static let free = CommissionSchedule(perShare: 0, minimumPerOrder: 0)

    /// `max(perShare × quantity, minimumPerOrder)`: 100 shares at 0.005 with a minimum of 1 cost 1.
    public func commission(for quantity: ExactDecimal) throws(ExactDecimal.ArithmeticError) -> ExactDecimal {
        Swift.max(try perShare.multiplied(by: quantity.magnitude), minimumPerOrder)
    }
}
