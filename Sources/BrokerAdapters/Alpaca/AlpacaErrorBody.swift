import Foundation

/// Alpaca's non-2xx body: `{"message":"…"}`, sometimes with a numeric `code`
/// (`alpaca-trade-api-go:alpaca/entities.go` `APIError`; reference §3.1).
public struct AlpacaErrorBody: Decodable, Sendable, Hashable {
    public let message: String
    public let code: Int?

    enum CodingKeys: String, CodingKey {
        case message, code
    }

    /// nil unless `data` is such a body.
    public static func decode(_ data: Data) -> AlpacaErrorBody? {
        try? JSONDecoder().decode(AlpacaErrorBody.self, from: data)
    }
}
