import Foundation

/// Alpaca's non-2xx body: `{"message":"…"}`, sometimes with a numeric `code`
/// (`alpaca-trade-api-go:alpaca/entities.go` `APIError`; reference §3.1). A refused order for want of
/// buying power also says what it needed and what the account had, as decimal strings:
/// `{"buying_power":"176531.28","code":40310000,"cost_basis":"48640000","message":"insufficient buying power"}`
/// (alpacahq/alpaca-py issue #225, an Alpaca maintainer's paper-account answer).
public struct AlpacaErrorBody: Decodable, Sendable, Hashable {
    public let message: String
    public let code: Int?
    public let buyingPower: String?
    public let costBasis: String?

    enum CodingKeys: String, CodingKey {
        case message, code
        case buyingPower = "buying_power"
        case costBasis = "cost_basis"
    }

    /// nil unless `data` is such a body.
    public static func decode(_ data: Data) -> AlpacaErrorBody? {
        try? JSONDecoder().decode(AlpacaErrorBody.self, from: data)
    }
}
