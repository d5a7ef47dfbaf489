import Foundation

/// The body of `GET /v1/user/profile` (reference §1.6): `account` is an object for one account and an
/// array for several.
public struct TradierProfileEnvelope: Decodable, Sendable {
    public var profile: Profile

    public struct Profile: Decodable, Sendable {
        public var id: String?
        public var name: String?
        public var account: OneOrMany<Account>?

        public var accounts: [Account] { account?.elements ?? [] }
    }

    public struct Account: Decodable, Sendable {
        public var accountNumber: String
        public var classification: String?
        /// RFC 3339, e.g. `2023-03-14T15:02:11.000Z`; kept as text so an odd date cannot fail the profile.
        public var dateCreated: String?
        public var dayTrader: Bool?
        public var optionLevel: Int?
        public var status: String?
        /// `cash`, `margin` or `pdt`.
        public var type: String?
        public var lastUpdateDate: String?

        enum CodingKeys: String, CodingKey {
            case classification, status, type
            case accountNumber = "account_number"
            case dateCreated = "date_created"
            case dayTrader = "day_trader"
            case optionLevel = "option_level"
            case lastUpdateDate = "last_update_date"
        }

        public var createdAt: Date? { dateCreated.flatMap(RFC3339.date(from:)) }
    }
}
