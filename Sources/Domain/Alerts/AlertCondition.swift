/// When an alert fires, judged on a broker's last trade price.
///
/// The thresholds are inclusive: a last trade exactly at the price fires `above` and `below`, and a move
/// of exactly the percent fires `move`, so an alert set at a round number does not wait for the next tick.
public enum AlertCondition: Sendable, Hashable {
    /// The last trade is at or above `price`.
    case above(ExactDecimal)
    /// The last trade is at or below `price`.
    case below(ExactDecimal)
    /// The last trade has moved `percent` (signed: `5` up, `-3` down) or more from `reference`, the price
    /// when the alert was set.
    case move(percent: ExactDecimal, reference: ExactDecimal)

    /// Whether `price` meets the condition. A move is measured as `(price − reference) × 100 ÷ reference`
    /// cut toward zero at 8 decimals; the percent has at most 8 decimals, so the cut never carries a
    /// move across it.
    public func isMet(by price: ExactDecimal) -> Bool {
        switch self {
        case .above(let threshold):
            return price >= threshold
        case .below(let threshold):
            return price <= threshold
        case .move(let percent, let reference):
            guard let moved = try? price.subtracting(reference).ratio(to: reference, times: 100, rounding: .towardZero) else {
                return false
            }
            return percent.isNegative ? moved <= percent : moved >= percent
        }
    }

    /// `> 190.5`, `< 180`, `+5% from 185.2`: how the screens, the log and `alerts list` say it.
    public var summary: String {
        switch self {
        case .above(let price): "> \(price)"
        case .below(let price): "< \(price)"
        case .move(let percent, let reference): "\(percent.isNegative ? "" : "+")\(percent)% from \(reference)"
        }
    }
}
