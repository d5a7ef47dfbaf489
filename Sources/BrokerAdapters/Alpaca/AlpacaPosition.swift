import Foundation
import Domain
import TextSafety

/// One entry of `GET /v2/positions` on the trading API. Money and quantities are decimal JSON strings
/// (`"avg_entry_price":"172.08"`), read straight into `ExactDecimal`. Shapes: Alpaca's Trading API reference
/// ("All Open Positions", and the Broker API's Position example), reference §8.1. A short position has
/// `"side":"short"` and a negative `qty`, `market_value` and `cost_basis` (alpacahq/Alpaca-API issue #86);
/// a client library has seen magnitudes with `side` alone, so the side sets the signs either way.
/// Only the fields the positions screen shows are decoded; `asset_id`, `exchange`, `lastday_price`, … are
/// ignored.
public struct AlpacaPosition: Decodable, Sendable, Hashable {
    public let symbol: String
    public let assetClass: String?
    public let quantity: ExactDecimal
    /// `long` or `short`.
    public let side: String?
    public let averageEntryPrice: ExactDecimal
    public let costBasis: ExactDecimal
    public let marketValue: ExactDecimal?
    public let currentPrice: ExactDecimal?
    public let unrealizedPL: ExactDecimal?
    /// `unrealized_plpc`, a fraction ("-0.0657894736842105"), kept as text so turning it into percent moves
    /// the decimal point instead of multiplying a value already rounded to 8 decimals.
    public let unrealizedPLFraction: String?
    public let unrealizedIntradayPL: ExactDecimal?

    enum CodingKeys: String, CodingKey {
        case symbol, side
        case assetClass = "asset_class"
        case quantity = "qty"
        case averageEntryPrice = "avg_entry_price"
        case costBasis = "cost_basis"
        case marketValue = "market_value"
        case currentPrice = "current_price"
        case unrealizedPL = "unrealized_pl"
        case unrealizedPLFraction = "unrealized_plpc"
        case unrealizedIntradayPL = "unrealized_intraday_pl"
    }

    /// The neutral position held at `brokerID`. Signs follow `Position`'s rule: negative quantity, cost
    /// basis and market value for a short.
    public func position(brokerID: String) throws(BrokerError) -> Position {
        let isShort: Bool
        switch side?.lowercased() {
        case "short": isShort = true
        case "long", nil: isShort = quantity.isNegative
        case let other?:
            throw .badResponse("alpaca: position \(VisibleText.escaped(symbol)) has side \"\(VisibleText.escaped(String(other.prefix(20))))\", not long or short")
        }
        func signed(_ value: ExactDecimal) -> ExactDecimal { isShort ? -value.magnitude : value.magnitude }
        var percent: ExactDecimal?
        if let fraction = unrealizedPLFraction {
            guard let value = Self.percent(fromFraction: fraction) else {
                throw .badResponse("alpaca: position \(VisibleText.escaped(symbol)): unrealized_plpc \"\(VisibleText.escaped(String(fraction.prefix(30))))\" is not a decimal")
            }
            percent = value
        }
        return Position(
            brokerID: brokerID, symbol: symbol, quantity: signed(quantity), averageCost: averageEntryPrice.magnitude,
            costBasis: signed(costBasis), lastPrice: currentPrice, marketValue: marketValue.map(signed),
            unrealizedPnL: unrealizedPL, unrealizedPnLPercent: percent, todayPnL: unrealizedIntradayPL)
    }

    /// `"-0.0657894736842105"` → `-6.57894737` (percent, rounded once to 8 decimals): the text's exponent
    /// raised by 2, so no digit is lost before the one rounding.
    static func percent(fromFraction text: String) -> ExactDecimal? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var mantissa = Substring(trimmed)
        var exponent = 0
        if let marker = trimmed.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let written = Int(trimmed[trimmed.index(after: marker)...]) else { return nil }
            mantissa = trimmed[..<marker]
            exponent = written
        }
        return ExactDecimal(parsing: "\(mantissa)e\(exponent + 2)")
    }
}
