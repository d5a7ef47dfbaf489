import Foundation
import Stores

/// Fuzzes the journal's replay (`Journal.readNew`: the line scanner, the checksum, `RecordDecoder` and its
/// JSONDecoder fallback, the torn-tail handling) on a real file, with a record type that uses every kind
/// of member a `Decodable` can ask for. The first byte picks what the rest is:
///
/// - 0: the ledger file itself, any bytes;
/// - 1: choices (Support/FuzzBytes.swift) for records, which a real `Journal` appends; a replay must give
///   them back exactly; then the file is damaged as the choices say (cut, a byte changed, inserted or
///   removed) and replayed again;
/// - 2: record bodies, one a line, each given a right envelope and checksum, so `RecordDecoder` meets
///   any bytes a checksum can vouch for.
///
/// Invariants, besides "never traps": every replay is what Support/LedgerFuzzing.swift's model says
/// (records equal to JSONDecoder's reading of each line, the torn tail saved and cut, a corrupt line at
/// its number with the file untouched, a second replay the same), and messages are escaped.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let mode = bytes.first else { return 0 }
    let payload = bytes.dropFirst()
    switch mode % 3 {
    case 0:
        LedgerFuzzing.check(Array(payload), as: FuzzRecord.self, in: JournalFuzzRun.scratch)
    case 1:
        JournalFuzzRun.roundTrip(FuzzBytes(payload))
    default:
        LedgerFuzzing.check(LedgerFuzzing.ledger(bodies: LedgerFuzzing.bodies(ArraySlice(payload))), as: FuzzRecord.self, in: JournalFuzzRun.scratch)
    }
    return 0
}

enum JournalFuzzRun {
    nonisolated(unsafe) static let scratch = ScratchLedger()

    static func roundTrip(_ choices: FuzzBytes) {
        var choices = choices
        let records = (0..<choices.int(in: 0...6)).map { _ in FuzzRecord(&choices) }
        scratch.clear()
        do throws(JournalError) {
            try Journal<FuzzRecord>(url: scratch.ledger).append(contentsOf: records)
        } catch {
            fuzzInvariant(false, "appending \(records) failed: \(error)")
        }
        let bytes = scratch.contents(of: scratch.ledger.path) ?? []
        let replayed = LedgerFuzzing.check(bytes, as: FuzzRecord.self, in: scratch)
        fuzzInvariant(replayed == records, "appended \(records), replayed \(String(describing: replayed)) from \(LedgerFuzzing.show(bytes))")
        LedgerFuzzing.check(LedgerFuzzing.damaged(bytes, &choices), as: FuzzRecord.self, in: scratch)
    }
}

/// A record with a member of every kind `RecordDecoder` reads itself (strings, every integer width,
/// `Double`, `Float`, `Bool`, `Decimal`, `Data`, `Date`, optionals, arrays, nested objects, dictionaries,
/// enums) and one it leaves to JSONDecoder (`superDecoder`).
struct FuzzRecord: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable { case order, fill, note }

    struct Leg: Codable, Sendable, Equatable {
        var symbol: String
        var shares: Int64
        var price: Decimal?
    }

    var kind: Kind
    var text: String
    var count: Int
    var tiny: Int8
    var short: UInt16?
    var wide: UInt64
    var signed: Int32
    var ratio: Double
    var scale: Float?
    var flag: Bool
    var amount: Decimal?
    var when: Date?
    var blob: Data?
    var tags: [String]
    var legs: [Leg]
    var matrix: [[Int16]]?
    var lookup: [String: Int]?
    var base: Base?

    /// Asks its keyed container for `superDecoder()`, which `RecordDecoder` refuses, so JSONDecoder reads
    /// the record.
    struct Base: Codable, Sendable, Equatable {
        private enum CodingKeys: String, CodingKey { case note }
        var note: String

        init(note: String) { self.note = note }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            note = try container.decode(String.self, forKey: .note)
            _ = try container.superDecoder()
        }
    }
}

extension FuzzRecord {
    init(_ choices: inout FuzzBytes) {
        kind = choices.pick([.order, .fill, .note])
        text = choices.text()
        count = Int(truncatingIfNeeded: choices.word())
        tiny = Int8(truncatingIfNeeded: choices.byte())
        short = choices.bool() ? UInt16(truncatingIfNeeded: choices.word()) : nil
        wide = choices.word()
        signed = Int32(truncatingIfNeeded: choices.word())
        ratio = Self.double(&choices)
        scale = choices.bool() ? Float(Self.double(&choices)).nonInfinite : nil
        flag = choices.bool()
        amount = choices.bool() ? Self.decimal(&choices) : nil
        when = choices.bool() ? Date(timeIntervalSinceReferenceDate: Self.double(&choices)) : nil
        blob = choices.bool() ? Data(choices.bytes(upTo: 12)) : nil
        tags = (0..<choices.int(in: 0...3)).map { _ in choices.text() }
        legs = (0..<choices.int(in: 0...2)).map { _ in
            Leg(symbol: choices.text(), shares: Int64(truncatingIfNeeded: choices.word()), price: choices.bool() ? Self.decimal(&choices) : nil)
        }
        matrix = choices.bool() ? (0..<choices.int(in: 0...2)).map { _ in (0..<choices.int(in: 0...3)).map { _ in Int16(truncatingIfNeeded: choices.word()) } } : nil
        lookup = choices.bool() ? Dictionary((0..<choices.int(in: 0...3)).map { _ in (choices.text(), Int(truncatingIfNeeded: choices.word())) }, uniquingKeysWith: { first, _ in first }) : nil
        base = choices.bool() ? Base(note: choices.text()) : nil
    }

    /// Finite doubles: any bit pattern, or a short decimal as prices are.
    static func double(_ choices: inout FuzzBytes) -> Double {
        if choices.bool() {
            let value = Double(bitPattern: choices.word())
            return value.isFinite ? value : 0
        }
        return Double(choices.int(in: -1_000_000...1_000_000)) / Double(choices.pick([1, 10, 100, 10_000, 100_000_000]))
    }

    static func decimal(_ choices: inout FuzzBytes) -> Decimal {
        Decimal(sign: choices.bool() ? .minus : .plus, exponent: choices.int(in: -30...30), significand: Decimal(choices.word()))
    }
}

extension Float {
    var nonInfinite: Float? { isFinite ? self : nil }
}
