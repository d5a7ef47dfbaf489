import Domain
import TextSafety

/// Shares bought (or sold short) on one day at one price, kept in the holdings book because they are
/// held somewhere the app cannot ask: another broker, a retirement plan, paper certificates.
///
/// `quantity` is positive for shares bought and negative for shares sold (short, or out of an earlier
/// lot: see `ManualHoldingsBook.positions()`); `price` is per share and never negative; `fees` is what
/// the trade cost on top, never negative.
public struct ManualLot: Sendable, Hashable {
    public var date: TradeDate
    /// Canonical (`Symbol.normalize`): upper-cased letters, digits, `. - / ^`.
    public var symbol: String
    public var quantity: ExactDecimal
    public var price: ExactDecimal
    public var fees: ExactDecimal
    /// Where the shares are held, as the user named it ("Fidelity IRA"); nil when the file has no
    /// broker column or left it empty. Positions are kept apart per label.
    public var brokerLabel: String?
    /// The line of the CSV file it came from, for messages about it later.
    public var line: Int

    /// The longest broker label, in characters: enough for "Vanguard Roth IRA 2", short enough for a column.
    public static let maximumLabelLength = 32

    public init(
        date: TradeDate, symbol: String, quantity: ExactDecimal, price: ExactDecimal, fees: ExactDecimal = 0,
        brokerLabel: String? = nil, line: Int
    ) {
        self.date = date
        self.symbol = symbol
        self.quantity = quantity
        self.price = price
        self.fees = fees
        self.brokerLabel = brokerLabel
        self.line = line
    }

    /// What the lot cost, fees included: `quantity × price + fees`. Negative for shares sold (what they
    /// brought in, less the fees), which is the sign `Position.costBasis` gives a short.
    public func cost() throws(ExactDecimal.ArithmeticError) -> ExactDecimal {
        try quantity.multiplied(by: price).adding(fees)
    }

    /// Why the lot cannot be in the book, or nil: the rules the CSV reader enforces with friendlier
    /// messages, checked again on what is read back from `holdings.json`, which could have been edited.
    var problem: String? {
        switch Symbol.normalize(symbol) {
        case .failure(let error): return "bad symbol: \(error)"
        case .success(let canonical) where canonical != symbol: return "symbol \(VisibleText.escaped(symbol)) is not upper-case"
        case .success: break
        }
        if quantity.isZero { return "\(symbol) has a quantity of zero" }
        if price.isNegative { return "\(symbol) has a negative price" }
        if fees.isNegative { return "\(symbol) has negative fees" }
        if let brokerLabel, let reason = Self.labelProblem(brokerLabel) { return "broker label \(reason)" }
        do {
            _ = try cost()
        } catch {
            return "\(symbol): \(error)"
        }
        return nil
    }

    /// Why `label` (already trimmed) cannot name a broker, or nil.
    static func labelProblem(_ label: String) -> String? {
        if label.isEmpty { return "is empty" }
        if label.count > maximumLabelLength { return "is longer than \(maximumLabelLength) characters" }
        if label.unicodeScalars.contains(where: VisibleText.isSteering) { return "holds a control character" }
        return nil
    }
}

extension ManualLot: Codable {
    private enum CodingKeys: String, CodingKey {
        case date, symbol, quantity, price, fees, brokerLabel = "broker", line
    }
}
