import Domain
import Foundation
import Stores
import TextSafety

/// One line of the paper broker's ledger: everything that happened to the account, in order. The
/// account, its orders and its fills are what replaying these lines gives (`PaperLedgerState`); nothing
/// else is stored.
///
/// A line's record is one flat JSON object (`PaperLedgerKey` names every member) whose `type` says
/// which case it is, e.g.
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
    /// One container for the whole line (see `PaperLedgerKey`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: PaperLedgerKey.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "filled": self = .filled(try PaperOrderFilled(from: container))
        case "placed": self = .placed(try PaperOrderPlaced(from: container))
        case "accountOpened": self = .accountOpened(try PaperAccountOpened(from: container))
        case "triggered": self = .triggered(try PaperOrderTriggered(from: container))
        case "cancelled": self = .cancelled(try PaperOrderCancelled(from: container))
        case "expired": self = .expired(try PaperOrderExpired(from: container))
        case "rejected": self = .rejected(try PaperOrderRejected(from: container))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "record type \"\(VisibleText.escaped(type))\" is not one of accountOpened, placed, triggered, filled, cancelled, expired, rejected")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PaperLedgerKey.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .accountOpened(let record): try record.encode(to: &container)
        case .placed(let record): try record.encode(to: &container)
        case .triggered(let record): try record.encode(to: &container)
        case .filled(let record): try record.encode(to: &container)
        case .cancelled(let record): try record.encode(to: &container)
        case .expired(let record): try record.encode(to: &container)
        case .rejected(let record): try record.encode(to: &container)
        }
    }
}

extension PaperLedgerRecord: JournalRecordParsing {
    /// The record on a ledger line, read in place (`PaperLedgerMembers`) without Codable's containers:
    /// a replay reads 200,000 lines for 100,000 fills. Nil for anything `init(from:)` might not read the
    /// same way, which the journal then decodes with it (and refuses, with its line number, when that
    /// fails too).
    public static func parse(_ records: UnsafeBufferPointer<UnsafeRawBufferPointer>, into parsed: UnsafeMutablePointer<PaperLedgerRecord>) -> Int {
        for (index, json) in records.enumerated() {
            guard let record = parse(json) else { return index }
            (parsed + index).initialize(to: record)
        }
        return records.count
    }

    /// One record, or nil for one Codable must read.
    static func parse(_ json: UnsafeRawBufferPointer) -> PaperLedgerRecord? {
        var members = PaperLedgerMembers()
        guard members.read(json), let type = members.type else { return nil }
        if type.isString("filled") { return PaperOrderFilled(members: members).map(PaperLedgerRecord.filled) }
        if type.isString("placed") { return PaperOrderPlaced(members: members).map(PaperLedgerRecord.placed) }
        if type.isString("accountOpened") { return PaperAccountOpened(members: members).map(PaperLedgerRecord.accountOpened) }
        if type.isString("triggered") { return PaperOrderTriggered(members: members).map(PaperLedgerRecord.triggered) }
        if type.isString("cancelled") { return PaperOrderCancelled(members: members).map(PaperLedgerRecord.cancelled) }
        if type.isString("expired") { return PaperOrderExpired(members: members).map(PaperLedgerRecord.expired) }
        if type.isString("rejected") { return PaperOrderRejected(members: members).map(PaperLedgerRecord.rejected) }
        return nil
    }
}
