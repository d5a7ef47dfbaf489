import Domain
import Foundation
import TextSafety

/// The body of `GET /v1/accounts/{id}/positions` (Tradier's Positions response docs, reference §8.2):
/// `{"positions":{"position":[…]}}`, an object instead of the array for one position, and
/// `{"positions":"null"}` for none (reference §1.3). Numbers are JSON numbers (`"quantity":13.00000000`),
/// read exactly from their digits into `ExactDecimal`.
public struct TradierPositionsEnvelope: Decodable, Sendable {
    public var positions: TradierNullable<Positions>

    public var positionList: [Position] { positions.value?.position?.elements ?? [] }

    public struct Positions: Decodable, Sendable {
        public var position: OneOrMany<Position>?
    }

    public struct Position: Decodable, Sendable, Hashable {
        /// What the whole position cost, in dollars.
        public var costBasis: ExactDecimal
        public var dateAcquired: String?
        public var id: FlexibleIdentifier?
        /// Shares; negative for a short position.
        public var quantity: ExactDecimal
        public var symbol: String

        enum CodingKeys: String, CodingKey {
            case id, quantity, symbol
            case costBasis = "cost_basis"
            case dateAcquired = "date_acquired"
        }

        /// The neutral position held at `brokerID`. Tradier sends no price, so only quantity and cost:
        /// the average cost is `|cost_basis| ÷ |quantity|` (8 decimals, half to even), and the cost basis
        /// takes the quantity's sign (`Position`'s rule; Tradier's sign for a short's cost is not documented).
        public func position(brokerID: String) throws(BrokerError) -> Domain.Position {
            let average: ExactDecimal
            if quantity.isZero {
                average = .zero
            } else {
                do throws(ExactDecimal.ArithmeticError) {
                    average = try costBasis.magnitude.divided(by: quantity.magnitude)
                } catch {
                    throw .badResponse("tradier: position \(VisibleText.escaped(symbol)): \(error)")
                }
            }
            return Domain.Position(
                brokerID: brokerID, symbol: TradierSymbol.domain(symbol), quantity: quantity, averageCost: average,
                costBasis: quantity.isNegative ? -costBasis.magnitude : costBasis.magnitude)
        }
    }
}
