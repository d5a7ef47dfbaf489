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

    /// Whether `errorMessage(in:)` might find a message: the same look at the first bytes, on bytes
    /// rather than characters, so it is true whenever that is, without building a string. Decoders on
    /// the hot path leave such bodies to `decode`.
    static func mayBeErrorBody(_ body: Data) -> Bool {
        body.prefix(errorKeyWindow).withUnsafeBytes { head in
            func holds(_ key: StaticString) -> Bool {
                let count = key.utf8CodeUnitCount
                guard head.count >= count else { return false }
                return (0...(head.count - count)).contains { start in
                    (0..<count).allSatisfy { head[start + $0] == key.utf8Start[$0] }
                }
            }
            return holds("\"errors\"") || holds("\"fault\"")
        }
    }

    private static let errorKeyWindow = 32

    /// The message of an `errors` or `fault` body, or nil for any other body.
    public static func errorMessage(in response: HTTPResponse) -> String? {
        // Both shapes put their key first; looking there spares parsing every quotes body twice.
        let head = String(decoding: response.body.prefix(errorKeyWindow), as: UTF8.self)
        guard head.contains("\"errors\"") || head.contains("\"fault\"") else { return nil }
        return (try? JSONDecoder().decode(TradierErrorBody.self, from: response.body))?.message
    }
}
