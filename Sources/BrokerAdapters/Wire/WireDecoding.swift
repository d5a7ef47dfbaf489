import Domain
import Foundation
import Networking

/// Decodes a broker's JSON body, turning Foundation's long `DecodingError` into a short `.badResponse`
/// that says where the body differed from the wire model and how it starts, for a log line or a footer.
public enum WireDecoding {
    /// Enough of the body to recognise it (an HTML error page, XML, a plain-text error).
    public static let excerptLength = 60

    public static func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, broker: String) throws(BrokerError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch let error as DecodingError {
            throw badResponse(broker: broker, reason: reason(for: error, body: response.body), response: response)
        } catch {
            throw badResponse(broker: broker, reason: "\(error)", response: response)
        }
    }

    /// `.badResponse("<broker>: unexpected response: <reason>; body starts '<excerpt>'")`.
    public static func badResponse(broker: String, reason: String, response: HTTPResponse) -> BrokerError {
        let excerpt = response.body.isEmpty ? "empty body" : "body starts '\(response.bodyExcerpt(limit: excerptLength))'"
        return .badResponse("\(broker): unexpected response: \(reason); \(excerpt)")
    }

    /// A few words naming what failed and where, e.g. `missing key 'quotes'` or
    /// `quotes.quote[1].last: expected Double`.
    public static func reason(for error: DecodingError, body: Data = Data()) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)'" + location(context.codingPath)
        case .valueNotFound(let type, let context):
            return "null where \(type) expected" + location(context.codingPath)
        case .typeMismatch(let type, let context):
            return "expected \(type)" + location(context.codingPath)
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return body.isEmpty ? "no JSON" : "not JSON" }
            return "invalid value" + location(context.codingPath) + ": " + context.debugDescription.prefix(60)
        @unknown default:
            return "undecodable"
        }
    }

    /// ` at quotes.quote[1].last`, or nothing at the top level.
    static func location(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "" }
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index") || key.stringValue == "\(index)" {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return " at " + text
    }
}
