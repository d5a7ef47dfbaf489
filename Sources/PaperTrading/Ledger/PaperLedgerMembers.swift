import Domain
import Foundation
import Stores

/// The members of one ledger record read in place, for a replay's fast path (`PaperLedgerRecord.parse`):
/// each record type's `init?(members:)` takes its values from here the way its `init(from:)` takes them
/// from a Codable container, and gives up (nil) wherever that one could do anything but succeed the
/// same way; Codable then reads the record, or refuses it with its reason.
///
/// The two records a replay is made of, `placed` and `filled`, are read in the order JSONEncoder writes
/// their members (sorted), each name one compare; any other record, or one written in another order,
/// is read member by member, each name found by a switch on its length and a byte compare. Either
/// way no `String` is made per key, and a value is converted only when a record type asks for it.
/// Refused here, and so left to Codable: a member that `PaperLedgerKey` does not name (Codable would
/// skip it, but only after checking it as JSON, which `FlatRecordReader` does not do for every value), a
/// member written twice, and a `null`.
struct PaperLedgerMembers {
    var type, startingCash: FlatRecordValue?
    var orderID, fillID, replacedBy: FlatRecordValue?
    var symbol, side, quantity, orderType, limit, stop, timeInForce, clientOrderID: FlatRecordValue?
    var expiresAt, bid, ask, last: FlatRecordValue?
    var worksAs, lastTrade: FlatRecordValue?
    var price, priceSource, commission: FlatRecordValue?
    var reason: FlatRecordValue?
    var time: FlatRecordValue?

    /// Reads the members of `json`; false when it is not an object whose members are all this reads.
    mutating func read(_ json: UnsafeRawBufferPointer) -> Bool {
        var reader = FlatRecordReader(json)
        switch readInWrittenOrder(&reader) {
        case .read:
            return true
        case .anotherRecord:
            break
        case .anotherOrder:
            self = PaperLedgerMembers()
            reader = FlatRecordReader(json)
        }
        while let member = reader.next() {
            guard member.value.kind != .null, store(member) else { return false }
        }
        return reader.isComplete
    }

    private enum WrittenOrder {
        /// Every member read.
        case read
        /// Not a `filled` or `placed` record as the journal writes it; nothing was read.
        case anotherRecord
        /// Some members were read, then one was not where the journal writes it.
        case anotherOrder
    }

    /// A `filled` or a `placed` record as the journal writes it: its members in sorted order, those of
    /// `placed` that are there only when it has them (`ask`, `bid`, `expiresAt`, `last`, `limit`, `stop`)
    /// tried in their places.
    private mutating func readInWrittenOrder(_ reader: inout FlatRecordReader) -> WrittenOrder {
        var complete = true
        func member(_ name: StaticString, required: Bool = true) -> FlatRecordValue? {
            let value = reader.nextMember(named: name)
            if value?.kind == .null || (required && value == nil) { complete = false }
            return value
        }
        if let commission = reader.nextMember(named: "commission") {
            self.commission = commission
            complete = commission.kind != .null
            fillID = member("fillID")
            orderID = member("orderID")
            price = member("price")
            priceSource = member("priceSource")
            quantity = member("quantity")
            time = member("time")
            type = member("type")
        } else {
            ask = member("ask", required: false)
            bid = member("bid", required: false)
            clientOrderID = member("clientOrderID")
            guard ask != nil || bid != nil || clientOrderID != nil else { return .anotherRecord }
            expiresAt = member("expiresAt", required: false)
            last = member("last", required: false)
            limit = member("limit", required: false)
            orderID = member("orderID")
            orderType = member("orderType")
            quantity = member("quantity")
            side = member("side")
            stop = member("stop", required: false)
            symbol = member("symbol")
            time = member("time")
            timeInForce = member("timeInForce")
            type = member("type")
        }
        return complete && reader.isComplete ? .read : .anotherOrder
    }

    /// Puts `member` in its slot; false for a name `PaperLedgerKey` does not have, or one seen before.
    /// Every key is here (a test checks), grouped by the length of its name.
    private mutating func store(_ member: FlatRecordMember) -> Bool {
        func put(_ slot: inout FlatRecordValue?) -> Bool {
            guard slot == nil else { return false }
            slot = member.value
            return true
        }
        switch member.name.count {
        case 3:
            if member.isNamed("ask") { return put(&ask) }
            if member.isNamed("bid") { return put(&bid) }
        case 4:
            if member.isNamed("time") { return put(&time) }
            if member.isNamed("type") { return put(&type) }
            if member.isNamed("side") { return put(&side) }
            if member.isNamed("stop") { return put(&stop) }
            if member.isNamed("last") { return put(&last) }
        case 5:
            if member.isNamed("price") { return put(&price) }
            if member.isNamed("limit") { return put(&limit) }
        case 6:
            if member.isNamed("fillID") { return put(&fillID) }
            if member.isNamed("symbol") { return put(&symbol) }
            if member.isNamed("reason") { return put(&reason) }
        case 7:
            if member.isNamed("orderID") { return put(&orderID) }
            if member.isNamed("worksAs") { return put(&worksAs) }
        case 8:
            if member.isNamed("quantity") { return put(&quantity) }
        case 9:
            if member.isNamed("orderType") { return put(&orderType) }
            if member.isNamed("lastTrade") { return put(&lastTrade) }
            if member.isNamed("expiresAt") { return put(&expiresAt) }
        case 10:
            if member.isNamed("commission") { return put(&commission) }
            if member.isNamed("replacedBy") { return put(&replacedBy) }
        case 11:
            if member.isNamed("priceSource") { return put(&priceSource) }
            if member.isNamed("timeInForce") { return put(&timeInForce) }
        case 12:
            if member.isNamed("startingCash") { return put(&startingCash) }
        case 13:
            if member.isNamed("clientOrderID") { return put(&clientOrderID) }
        default:
            break
        }
        return false
    }

    // MARK: Values, as Codable reads them

    /// A string member's text (`String`, and the ids, which are strings on the line).
    static func string(_ value: FlatRecordValue?) -> String? {
        value?.string
    }

    /// A decimal written as a string, read as `ExactDecimal`'s `init(from:)` reads it (`init?(parsing:)`);
    /// the plain form its encoder writes (`-12.5`, at most 8 decimals) without making a `String`. A
    /// decimal written as a JSON number is left to Codable.
    static func decimal(_ value: FlatRecordValue?) -> ExactDecimal? {
        guard let value, value.kind == .string else { return nil }
        if let units = plainUnits(value.bytes) { return ExactDecimal(units: units) }
        return ExactDecimal(parsing: String(decoding: value.bytes, as: UTF8.self))
    }

    /// A `Date` as it encodes itself: seconds since 2001-01-01 as a JSON number.
    static func date(_ value: FlatRecordValue?) -> Date? {
        value?.double.map(Date.init(timeIntervalSinceReferenceDate:))
    }

    /// An optional member (`decodeIfPresent`): `.some(nil)` when it is absent, nil when it is there and
    /// cannot be read.
    static func optional<Value>(_ value: FlatRecordValue?, _ read: (FlatRecordValue?) -> Value?) -> Value?? {
        guard value != nil else { return .some(nil) }
        guard let read = read(value) else { return nil }
        return .some(read)
    }

    /// An enum written as its raw value: `words` is built once from the type's cases, so the words are
    /// the ones Codable reads.
    static func word<Value>(_ value: FlatRecordValue?, in words: WordTable<Value>) -> Value? {
        guard let value, value.kind == .string else { return nil }
        return words.value(value.bytes)
    }

    static let sides = WordTable(OrderSide.self)
    static let timesInForce = WordTable(TimeInForce.self)
    static let priceSources = WordTable(FillPriceSource.self)

    /// The raw values of an enum's cases and the cases, for reading them from bytes.
    struct WordTable<Value>: Sendable where Value: Sendable {
        private let entries: [(word: [UInt8], value: Value)]

        init(_ type: Value.Type) where Value: CaseIterable & RawRepresentable<String> {
            entries = Value.allCases.map { (Array($0.rawValue.utf8), $0) }
        }

        func value(_ bytes: UnsafeRawBufferPointer) -> Value? {
            for entry in entries where entry.word.elementsEqual(bytes) { return entry.value }
            return nil
        }
    }

    /// The units of `-?(0|[1-9]d*)(.d{1,8})?` within ±90,000,000,000, ExactDecimal's own description;
    /// nil for any other text (which `ExactDecimal(parsing:)` then reads or refuses). For this form both
    /// give the same: the digits scaled to 10⁻⁸, nothing to round.
    static func plainUnits(_ text: UnsafeRawBufferPointer) -> Int64? {
        let count = text.count
        var index = 0
        let negative = count > 0 && text[0] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < count else { return nil }
        var whole: Int64 = 0
        if text[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            let start = index
            while index < count, case let digit = text[index] &- UInt8(ascii: "0"), digit < 10 {
                // 12 digits are already beyond the range.
                guard index - start < 11 else { return nil }
                whole = whole * 10 + Int64(digit)
                index += 1
            }
            guard index > start else { return nil }
        }
        var fraction: Int64 = 0
        var fractionDigits = 0
        if index < count, text[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, case let digit = text[index] &- UInt8(ascii: "0"), digit < 10 {
                guard fractionDigits < ExactDecimal.scale else { return nil }
                fraction = fraction * 10 + Int64(digit)
                fractionDigits += 1
                index += 1
            }
            guard fractionDigits > 0 else { return nil }
        }
        guard index == count, whole <= ExactDecimal.max.units / ExactDecimal.unitsPerOne else { return nil }
        for _ in fractionDigits..<ExactDecimal.scale { fraction *= 10 }
        let units = whole * ExactDecimal.unitsPerOne + fraction
        guard units <= ExactDecimal.max.units else { return nil }
        return negative ? -units : units
    }
}
