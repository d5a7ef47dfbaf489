import Domain
import Foundation
import Networking

/// Turns a Tradier body into its wire model, noticing Tradier's own error shapes first: they come with
/// 400 and, from downstream systems, inside a 200 (reference §1.4).
public enum TradierResponseDecoding {
    public static func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws(BrokerError) -> T {
        if let message = errorMessage(in: response) {
            throw .badResponse("\(TradierRequestFactory.brokerID): \(message)")
        }
        return try WireDecoding.decode(T.self, from: response, broker: TradierRequestFactory.brokerID)
    }

    /// The message of an `errors` or `fault` body, or nil for any other body.
    public static func errorMessage(in response: HTTPResponse) -> String? {
        // Both shapes put their key first; looking there spares parsing every quotes body twice.
        let head = String(decoding: response.body.prefix(32), as: UTF8.self)
        guard head.contains("\"errors\"") || head.contains("\"fault\"") else { return nil }
        return (try? JSONDecoder().decode(TradierErrorBody.self, from: response.body))?.message
    }
}
