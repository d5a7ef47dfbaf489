import Domain
import Foundation
import TextSafety

/// One line of the paper broker's ledger: everything that happened to the account, in order. The
/// account, its orders and its fills are what replaying these lines gives (`PaperLedgerState`); nothing
/// else is stored.
///
/// A line's record is one flat JSON object whose `type` says which case it is, e.g.
/// `{"type":"filled","orderID":"P-2","fillID":"F-3","quantity":"10","price":"187.52","priceSource":"ask",
/// "commission":"1","time":816307200.25}` (inside the journal's `{"seq":…,"crc":…,"rec":…}`). Money and
/// quantities are decimal text, exact; times are seconds since 2001-01-01 UTC, as `Date` encodes itself.
public enum PaperLedgerRecord: Sendable, Hashable {
    case accountOpened(PaperAccountOpened)
    case placed(PaperOrderPlaced)
    case triggered(PaperOrderTriggered)
    case filled(PaperOrderFilled)
    case cancelled(PaperOrderCancelled)
    case expired(PaperOrderExpired)
    case rejected(PaperOrderRejected)

    /// The `type` word on the line.
    public var type: String {
        switch self {
        case .accountOpened: "accountOpened"
        case .placed: "placed"
        case .triggered: "triggered"
        case .filled: "filled"
        case .cancelled: "cancelled"
        case .expired: "expired"
        case .rejected: "rejected"
        }
    }

    /// The order the record is about; nil for `accountOpened`.
    public var orderID: OrderID? {
        switch self {
        case .accountOpened: nil
        case .placed(let record): record.orderID
        case .triggered(let record): record.orderID
        case .filled(let record): record.orderID
        case .cancelled(let record): record.orderID
        case .expired(let record): record.orderID
        case .rejected(let record): record.orderID
        }
    }
}

extension PaperLedgerRecord: Codable {
    private enum TypeKey: String, CodingKey {
        case type
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "accountOpened": self = .accountOpened(try PaperAccountOpened(from: decoder))
        case "placed": self = .placed(try PaperOrderPlaced(from: decoder))
        case "triggered": self = .triggered(try PaperOrderTriggered(from: decoder))
        case "filled": self = .filled(try PaperOrderFilled(from: decoder))
        case "cancelled": self = .cancelled(try PaperOrderCancelled(from: decoder))
        case "expired": self = .expired(try PaperOrderExpired(from: decoder))
        case "rejected": self = .rejected(try PaperOrderRejected(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "record type \"\(VisibleText.escaped(type))\" is not one of accountOpened, placed, triggered, filled, cancelled, expired, rejected")
        }
    }

    /// The case's own members and `type` in one object: both containers write to the same JSON object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .accountOpened(let record): try record.encode(to: encoder)
        case .placed(let record): try record.encode(to: encoder)
        case .triggered(let record): try record.encode(to: encoder)
        case .filled(let record): try record.encode(to: encoder)
        case .cancelled(let record): try record.encode(to: encoder)
        case .expired(let record): try record.encode(to: encoder)
        case .rejected(let record): try record.encode(to: encoder)
        }
    }
}
