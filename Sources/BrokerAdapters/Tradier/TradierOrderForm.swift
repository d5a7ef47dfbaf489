import Domain
import Foundation
import Networking
import TextSafety

/// The form bodies (`application/x-www-form-urlencoded`, reference §1.1) of placing and modifying an equity
/// order, in a fixed field order so the bytes are known and tested exactly. Field names and words are
/// Tradier's "Place an Equity Order" and "Modify an Order" docs: `class=equity`, `symbol`, `side` (buy,
/// buy_to_cover, sell, sell_short: the domain's own four words), `quantity`, `type`, `duration` (day, gtc),
/// `price` (the limit), `stop`, `tag` (our client order id). Numbers are the exact decimal text
/// (`price=150.25`), never a float's.
enum TradierOrderForm {
    /// Tradier's limit on `tag` ("Maximum length of 255 characters. Valid characters are letters, numbers and -").
    static let tagLimit = 255

    /// `class=equity&symbol=AAPL&side=buy&quantity=10&type=limit&duration=day&price=150.25&tag=c-1`.
    static func place(_ order: OrderRequest) -> Result<Data, RequestConstructionError> {
        Result { () throws(RequestConstructionError) in
            // Equities trade in whole shares at Tradier ("whole numbers for equities", its trading guide).
            guard order.quantity.isWholeNumber else {
                throw .invalidOrder(reason: "quantity \(order.quantity): Tradier takes whole shares")
            }
            var fields = [
                ("class", "equity"), ("symbol", TradierSymbol.wire(order.symbol)), ("side", order.side.rawValue),
                ("quantity", order.quantity.description), ("type", order.type.name), ("duration", order.timeInForce.rawValue),
            ]
            fields += prices(order.type)
            if !order.clientOrderID.rawValue.isEmpty { fields.append(("tag", try tag(order.clientOrderID))) }
            return encoded(fields)
        }
    }

    /// `type=limit&duration=gtc&price=151`: what Tradier lets a modification change. The symbol, side and
    /// quantity of an order cannot change there (the caller checks them first).
    static func modify(_ order: OrderRequest) -> Data {
        encoded([("type", order.type.name), ("duration", order.timeInForce.rawValue)] + prices(order.type))
    }

    private static func prices(_ type: OrderType) -> [(String, String)] {
        var fields: [(String, String)] = []
        if let limit = type.limitPrice { fields.append(("price", limit.description)) }
        if let stop = type.stopPrice { fields.append(("stop", stop.description)) }
        return fields
    }

    private static func tag(_ id: ClientOrderID) throws(RequestConstructionError) -> String {
        let text = id.rawValue
        let valid = text.utf8.count <= tagLimit && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-")
        }
        guard valid else {
            throw .invalidOrder(reason: "client order id \"\(VisibleText.escaped(String(text.prefix(60))))\" cannot be Tradier's tag: letters, digits and - only, at most \(tagLimit)")
        }
        return text
    }

    /// `name=value&…`, each part form-encoded: letters, digits and `-._*` as they are, space as `+`, every
    /// other byte of its UTF-8 as `%XX`.
    static func encoded(_ fields: [(String, String)]) -> Data {
        Data(fields.map { "\(component($0.0))=\(component($0.1))" }.joined(separator: "&").utf8)
    }

    private static func component(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "*"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}
