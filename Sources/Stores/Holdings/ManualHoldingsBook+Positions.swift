import Domain

extension ManualHoldingsBook {
    /// A holding whose totals are beyond what `ExactDecimal` holds (±90,000,000,000): never a real one,
    /// but the book is outside input and must not trap.
    public struct TotalsError: Error, Sendable, Hashable, CustomStringConvertible {
        public var symbol: String
        public var brokerLabel: String?
        public var detail: ExactDecimal.ArithmeticError

        public var description: String {
            "the holding of \(symbol)\(brokerLabel.map { " at \($0)" } ?? "") cannot be totalled: \(detail)"
        }
    }

    /// The open positions, one per (broker label, symbol), sorted by label (lots without one first) and
    /// symbol; a holding whose lots net to zero shares is left out.
    ///
    /// How: each holding's lots are taken in date order (lots of one day in the order imported). A lot
    /// in the direction of the holding (or when there is none) opens; a lot against it closes open lots
    /// first in, first out, as the paper broker and most tax lots do, and opens with what is left.
    ///
    /// Fees are part of the cost, as a broker's cost basis counts them: an opening lot costs
    /// `quantity × price + fees` (for shares sold short, the proceeds less the fees, negative), so the
    /// average cost is what a share really cost and unrealized P&L at a price is the gain after fees paid.
    /// A closing lot's fees go to realized P&L; a lot that closes and opens splits its fees by shares.
    /// Closing part of a lot takes its share of that lot's cost, rounded half to even to 10⁻⁸, and leaves
    /// the rest, so no cost is ever lost to rounding.
    public func positions() throws(TotalsError) -> [ManualPosition] {
        struct Key: Hashable {
            var label: String?
            var symbol: String
        }
        var groups: [Key: [ManualLot]] = [:]
        // Stable: a lot keeps its import order among lots of the same day.
        for lot in lots.enumerated().sorted(by: { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }).map(\.element) {
            groups[Key(label: lot.brokerLabel, symbol: lot.symbol), default: []].append(lot)
        }
        var positions: [ManualPosition] = []
        for (key, lots) in groups {
            do throws(ExactDecimal.ArithmeticError) {
                if let position = try Self.position(label: key.label, symbol: key.symbol, lots: lots) {
                    positions.append(position)
                }
            } catch {
                throw TotalsError(symbol: key.symbol, brokerLabel: key.label, detail: error)
            }
        }
        return positions.sorted { ($0.brokerLabel ?? "", $0.symbol) < ($1.brokerLabel ?? "", $1.symbol) }
    }

    /// Shares still open from one lot, and what they cost.
    private struct OpenLot {
        var quantity: ExactDecimal
        var cost: ExactDecimal
    }

    /// The holding of `lots` (in date order), or nil when they net to nothing.
    private static func position(label: String?, symbol: String, lots: [ManualLot]) throws(ExactDecimal.ArithmeticError) -> ManualPosition? {
        var open: [OpenLot] = []
        var head = 0
        var realized: ExactDecimal = 0
        for lot in lots {
            var remaining = lot.quantity
            var feesLeft = lot.fees
            while !remaining.isZero, head < open.count, open[head].quantity.isNegative != remaining.isNegative {
                let closing = min(remaining.magnitude, open[head].quantity.magnitude)
                let closingSigned = remaining.isNegative ? -closing : closing
                // The last piece of the lot takes what is left of its fees, so the pieces add up exactly.
                let fee = closing == remaining.magnitude ? feesLeft : share(of: lot.fees, part: closing, whole: lot.quantity.magnitude)
                let removedCost = closing == open[head].quantity.magnitude
                    ? open[head].cost
                    : share(of: open[head].cost, part: closing, whole: open[head].quantity.magnitude)
                // Shares sold bring in −(quantity × price) less fees; bought back, they cost that plus fees.
                let proceeds = try closingSigned.multiplied(by: lot.price).adding(fee)
                realized = try realized.subtracting(proceeds).subtracting(removedCost)
                feesLeft -= fee
                open[head].quantity += closingSigned
                open[head].cost -= removedCost
                if open[head].quantity.isZero { head += 1 }
                remaining -= closingSigned
            }
            if !remaining.isZero {
                open.append(OpenLot(quantity: remaining, cost: try remaining.multiplied(by: lot.price).adding(feesLeft)))
            }
        }
        var quantity: ExactDecimal = 0
        var costBasis: ExactDecimal = 0
        for lot in open[head...] {
            quantity = try quantity.adding(lot.quantity)
            costBasis = try costBasis.adding(lot.cost)
        }
        guard !quantity.isZero else { return nil }
        return ManualPosition(
            brokerLabel: label, symbol: symbol, quantity: quantity, costBasis: costBasis,
            averageCost: try costBasis.divided(by: quantity), realizedPnL: realized, lotCount: lots.count)
    }

    /// `amount × part ÷ whole`, rounded half to even to 10⁻⁸, in `Int128` so the product cannot overflow.
    /// `part` is at most `whole`, which is positive, so the result is no larger than `amount`.
    static func share(of amount: ExactDecimal, part: ExactDecimal, whole: ExactDecimal) -> ExactDecimal {
        let numerator = Int128(amount.units) * Int128(part.units)
        let divisor = Int128(whole.units)
        var quotient = numerator / divisor
        let remainder = numerator % divisor
        if remainder != 0 {
            let twice = remainder.magnitude * 2
            let away = quotient + (numerator < 0 ? -1 : 1)
            if twice > divisor.magnitude || (twice == divisor.magnitude && quotient % 2 != 0) {
                quotient = away
            }
        }
        return ExactDecimal(units: Int64(quotient))
    }
}
