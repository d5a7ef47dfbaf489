import Foundation

/// Any JSON value, decoded and written back as it was: how an alert entry this version cannot read is
/// kept in the watchlist file untouched, rather than dropped at the next write.
enum StoredJSON: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    /// Foundation's JSONDecoder builds a `Decimal` from the number's digits, so `190.5` stays 190.5.
    case number(Decimal)
    case string(String)
    case array([StoredJSON])
    case object([String: StoredJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Decimal.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([StoredJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: StoredJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
