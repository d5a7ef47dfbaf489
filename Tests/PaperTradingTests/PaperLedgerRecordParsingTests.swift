import Domain
import Foundation
import Stores
import Testing
@testable import PaperTrading

/// A replay reads ledger records with their own parser (`PaperLedgerRecord.parse`) and leaves to Codable
/// whatever that parser is not sure of. Where it reads a record, it must give exactly what Codable gives.
@Suite struct PaperLedgerRecordParsingTests {
    /// As the journal writes records.
    static func json(_ record: PaperLedgerRecord) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(record), as: UTF8.self)
    }

    static func parse(_ json: String) -> PaperLedgerRecord? {
        Array(json.utf8).withUnsafeBytes { PaperLedgerRecord.parse($0) }
    }

    static func codable(_ json: String) throws -> PaperLedgerRecord {
        try JSONDecoder().decode(PaperLedgerRecord.self, from: Data(json.utf8))
    }

    /// Seeded records of every kind and shape, with the odd values a ledger can hold.
    struct RecordMaker {
        var generator: SplitMix64

        static let texts = ["margin", "a \"quoted\" reason", "back\\slash", "line\nbreak", "tab\tand\u{1}", "café", "😀",
                            "</script>", "long reason " + String(repeating: "long ", count: 20), "~ at the edge \u{7E}"]

        mutating func int(_ range: ClosedRange<Int64>) -> Int64 { Int64.random(in: range, using: &generator) }
        mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }

        /// Positive unless `signed`: plain, eight decimals, whole, tiny, the largest.
        mutating func decimal(signed: Bool = false) -> ExactDecimal {
            let units: Int64 = switch int(0...5) {
            case 0: int(1...1_000_000) * 1_000_000
            case 1: int(1...99_999_999_999)
            case 2: int(1...1_000_000) * ExactDecimal.unitsPerOne
            case 3: int(1...9)
            case 4: ExactDecimal.max.units - int(0...10)
            default: int(1...ExactDecimal.max.units)
            }
            return ExactDecimal(units: signed && chance(30) ? -units : units)
        }

        /// Whole seconds, hundredths, any double (17 digits), negative, tiny (written with an exponent).
        mutating func date() -> Date {
            let seconds: Double = switch int(0...5) {
            case 0: Double(int(700_000_000...900_000_000))
            case 1: Double(int(70_000_000_000...90_000_000_000)) / 100
            case 2: Double.random(in: 700_000_000...900_000_000, using: &generator)
            case 3: -Double.random(in: 0...1e9, using: &generator)
            case 4: Double.random(in: -1e-6...1e-6, using: &generator)
            default: Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &generator))
            }
            return Date(timeIntervalSinceReferenceDate: seconds)
        }

        mutating func id(_ prefix: String) -> String {
            chance(80) ? "\(prefix)-\(int(1...9_999_999))" : Self.texts.randomElement(using: &generator)!
        }

        mutating func type() -> OrderType {
            switch int(0...3) {
            case 0: .market
            case 1: .limit(decimal())
            case 2: .stop(decimal())
            default: .stopLimit(stop: decimal(), limit: decimal())
            }
        }

        mutating func record() throws -> PaperLedgerRecord {
            let orderID = OrderID(id("P"))
            switch int(0...6) {
            case 0:
                return .accountOpened(PaperAccountOpened(startingCash: decimal(signed: true), time: date()))
            case 1:
                let symbol = ["AAPL", "brk.b", "^GSPC", "BTC/USD", "A", "ABCDEFGHIJKLMNO", "X-1"].randomElement(using: &generator)!
                let request = try OrderRequest(
                    symbol: symbol, side: OrderSide.allCases.randomElement(using: &generator)!, quantity: decimal(),
                    type: type(), timeInForce: TimeInForce.allCases.randomElement(using: &generator)!,
                    clientOrderID: ClientOrderID(id("cb")))
                return .placed(PaperOrderPlaced(
                    orderID: orderID, request: request, time: date(), expiresAt: chance(50) ? date() : nil,
                    bid: chance(70) ? decimal(signed: true) : nil, ask: chance(70) ? decimal(signed: true) : nil,
                    last: chance(70) ? decimal(signed: true) : nil))
            case 2:
                let worksAs: OrderType = chance(50) ? .market : .limit(decimal())
                return .triggered(PaperOrderTriggered(orderID: orderID, worksAs: worksAs, lastTrade: decimal(signed: true), time: date()))
            case 3:
                return .filled(PaperOrderFilled(
                    orderID: orderID, fillID: FillID(id("F")), quantity: decimal(), price: decimal(signed: true),
                    priceSource: FillPriceSource.allCases.randomElement(using: &generator)!, commission: decimal(signed: true),
                    time: date()))
            case 4:
                return .cancelled(PaperOrderCancelled(orderID: orderID, time: date(), replacedBy: chance(50) ? OrderID(id("P")) : nil))
            case 5:
                return .expired(PaperOrderExpired(orderID: orderID, time: date()))
            default:
                return .rejected(PaperOrderRejected(orderID: orderID, reason: Self.texts.randomElement(using: &generator)!, time: date()))
            }
        }
    }

    @Test func readsEveryKindOfRecordAsCodableDoes() throws {
        var maker = RecordMaker(generator: SplitMix64(seed: 2027))
        var readByParser: [String: Int] = [:]
        for _ in 0..<3_000 {
            let record = try maker.record()
            let json = try Self.json(record)
            let reference = try Self.codable(json)
            #expect(reference == record)
            // Text with escapes or beyond ASCII is Codable's; the parser must read everything else.
            let plain = json.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }
            guard let parsed = Self.parse(json) else {
                #expect(!plain, "the parser left a plain record: \(json)")
                continue
            }
            #expect(parsed == reference, "\(json)")
            #expect(Self.times(parsed).map(\.bitPattern) == Self.times(reference).map(\.bitPattern), "\(json)")
            readByParser[record.type, default: 0] += 1
        }
        #expect(Set(readByParser.keys) == ["accountOpened", "placed", "triggered", "filled", "cancelled", "expired", "rejected"])
    }

    static func times(_ record: PaperLedgerRecord) -> [Double] {
        switch record {
        case .accountOpened(let record): [record.time.timeIntervalSinceReferenceDate]
        case .placed(let record): [record.time, record.expiresAt].compactMap { $0?.timeIntervalSinceReferenceDate }
        case .triggered(let record): [record.time.timeIntervalSinceReferenceDate]
        case .filled(let record): [record.time.timeIntervalSinceReferenceDate]
        case .cancelled(let record): [record.time.timeIntervalSinceReferenceDate]
        case .expired(let record): [record.time.timeIntervalSinceReferenceDate]
        case .rejected(let record): [record.time.timeIntervalSinceReferenceDate]
        }
    }

    /// Written by hand or by another writer: in another member order it is still the parser's; in any
    /// form it does not read, Codable's, which reads it or refuses it.
    @Test(arguments: [
        // Another order, numbers for decimals, exponents for times: the parser reads the first.
        (#"{"type":"filled","time":816307200.25,"quantity":"10","priceSource":"ask","price":"187.5","orderID":"P-2","fillID":"F-3","commission":"1"}"#, true),
        (#"{"commission":"1","fillID":"F-3","orderID":"P-2","price":187.5,"priceSource":"ask","quantity":"10","time":816307200.25,"type":"filled"}"#, false),
        (#"{"commission":"1.000000000","fillID":"F-3","orderID":"P-2","price":"1.875e2","priceSource":"ask","quantity":"10","time":8.1630720025E8,"type":"filled"}"#, true),
        (#"{"commission":"1","fillID":"F-3","orderID":"P-2","price":"0.000000015","priceSource":"ask","quantity":"10","time":0,"type":"filled"}"#, true),
        // Spaces, an escape, an unknown member, a null, a member twice: Codable's.
        (#"{"commission":"1", "fillID":"F-3","orderID":"P-2","price":"187.5","priceSource":"ask","quantity":"10","time":0,"type":"filled"}"#, false),
        (#"{"commission":"1","fillID":"F-3","orderID":"P\u002D2","price":"187.5","priceSource":"ask","quantity":"10","time":0,"type":"filled"}"#, false),
        (#"{"commission":"1","fillID":"F-3","note":"x","orderID":"P-2","price":"187.5","priceSource":"ask","quantity":"10","time":0,"type":"filled"}"#, false),
        (#"{"orderID":"P-2","replacedBy":null,"time":0,"type":"cancelled"}"#, false),
        (#"{"clientOrderID":"c","orderID":"P-2","orderType":"market","quantity":"5","side":"buy","symbol":"aapl","time":0,"timeInForce":"day","type":"placed"}"#, true),
    ])
    func aRecordWrittenAnotherWayReadsAsCodableReadsIt(json: String, byParser: Bool) throws {
        let reference = try Self.codable(json)
        let parsed = Self.parse(json)
        #expect((parsed != nil) == byParser)
        if let parsed { #expect(parsed == reference) }
    }

    /// A member written twice: whatever JSONDecoder makes of it, the parser does not guess.
    @Test func aMemberWrittenTwiceIsLeftToCodable() {
        #expect(Self.parse(#"{"orderID":"P-2","orderID":"P-3","time":0,"type":"expired"}"#) == nil)
        #expect(Self.parse(#"{"orderID":"P-2","time":0,"type":"expired"}"#) == .expired(PaperOrderExpired(orderID: OrderID("P-2"), time: Date(timeIntervalSinceReferenceDate: 0))))
    }

    /// Each is refused by Codable; the parser must leave every one to it, so the reason is Codable's.
    @Test(arguments: [
        #"{"commission":"1","orderID":"P-2","price":"187.5","priceSource":"ask","quantity":"10","time":0,"type":"filled"}"#,
        #"{"commission":"1","fillID":"F-3","orderID":"P-2","price":"1.2.3","priceSource":"ask","quantity":"10","time":0,"type":"filled"}"#,
        #"{"commission":"1","fillID":"F-3","orderID":"P-2","price":"90000000001","priceSource":"ask","quantity":"10","time":0,"type":"filled"}"#,
        #"{"commission":"1","fillID":"F-3","orderID":"P-2","price":"187.5","priceSource":"mid","quantity":"10","time":0,"type":"filled"}"#,
        #"{"commission":"1","fillID":"F-3","orderID":"P-2","price":"187.5","priceSource":"ask","quantity":"10","time":"0","type":"filled"}"#,
        #"{"commission":"1","fillID":3,"orderID":"P-2","price":"187.5","priceSource":"ask","quantity":"10","time":0,"type":"filled"}"#,
        #"{"clientOrderID":"c","orderID":"P-2","orderType":"market","quantity":"-5","side":"buy","symbol":"AAPL","time":0,"timeInForce":"day","type":"placed"}"#,
        #"{"clientOrderID":"c","orderID":"P-2","orderType":"limit","quantity":"5","side":"buy","symbol":"AAPL","time":0,"timeInForce":"day","type":"placed"}"#,
        #"{"clientOrderID":"c","orderID":"P-2","orderType":"trailing","quantity":"5","side":"buy","symbol":"AAPL","time":0,"timeInForce":"day","type":"placed"}"#,
        #"{"clientOrderID":"c","orderID":"P-2","orderType":"market","quantity":"5","side":"long","symbol":"AAPL","time":0,"timeInForce":"day","type":"placed"}"#,
        #"{"clientOrderID":"c","orderID":"P-2","orderType":"market","quantity":"5","side":"buy","symbol":"AA PL","time":0,"timeInForce":"day","type":"placed"}"#,
        #"{"clientOrderID":"c","orderID":"P-2","orderType":"market","quantity":"5","side":"buy","symbol":"AAPL","time":0,"timeInForce":"week","type":"placed"}"#,
        #"{"lastTrade":"190","orderID":"P-2","time":0,"type":"triggered","worksAs":"stop_limit"}"#,
        #"{"startingCash":"","time":0,"type":"accountOpened"}"#,
        #"{"orderID":"P-2","time":1e400,"type":"expired"}"#,
        #"{"orderID":"P-2","time":0,"type":"margin_call"}"#,
        #"{"orderID":"P-2","time":0,"type":"rejected"}"#,
        #"{"orderID":"P-2","time":0}"#,
        #"{"orderID":"P-2","reason":"x","time":0,"type":"rejected""#,
    ])
    func whatCodableRefusesTheParserLeavesToIt(json: String) {
        #expect(Self.parse(json) == nil, "\(json)")
        #expect(throws: (any Error).self) { try Self.codable(json) }
    }

    /// Through the journal: a malformed record in the middle is refused with its line number and
    /// Codable's reason, and the file is kept.
    @Test func aMalformedRecordInALedgerIsRefusedWithItsLine() throws {
        let rig = try PaperRig()
        let placed = try Self.json(.placed(PaperOrderPlaced(
            orderID: OrderID("P-2"), request: try order(.buy, 5), time: epoch, expiresAt: nil, bid: nil, ask: 10, last: nil)))
        let bad = placed.replacingOccurrences(of: #""quantity":"5""#, with: #""quantity":"-5""#)
        let lines = [try Self.json(.accountOpened(PaperAccountOpened(startingCash: 1_000, time: epoch))), placed, bad, placed]
        try Data(lines.enumerated().map { line(sequence: $0.offset + 1, record: $0.element) }.joined().utf8).write(to: rig.ledgerURL)
        let before = try Data(contentsOf: rig.ledgerURL)
        #expect {
            try Journal<PaperLedgerRecord>(url: rig.ledgerURL).readNew()
        } throws: { error in
            guard case JournalError.corrupt(3, let reason, _) = error else { return false }
            return reason == "its record is not a PaperLedgerRecord: quantity: invalid order: quantity -5 must be more than 0"
        }
        #expect(try Data(contentsOf: rig.ledgerURL) == before)
    }

    /// A ledger line as `Journal` writes it (docs/ledger-format.md), built here from the documented layout.
    func line(sequence: Int, record: String) -> String {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in "\(sequence) \(record)".utf8 {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        let hex = String(~crc, radix: 16)
        return #"{"seq":\#(sequence),"crc":"\#(String(repeating: "0", count: 8 - hex.count) + hex)","rec":\#(record)}"# + "\n"
    }

    /// The plain form ExactDecimal writes is read without a String, and always as `init?(parsing:)` reads it.
    @Test func plainDecimalsReadAsExactDecimalParsesThem() {
        var generator = SplitMix64(seed: 8)
        var texts = ["0", "-0", "0.0", "1", "-1", "10.5", "0.00000001", "0.000000001", "90000000000", "-90000000000",
                     "90000000000.00000001", "99999999999", "100000000000", "007", "1.", ".5", "-", "", "1e2", "1.123456789"]
        for _ in 0..<5_000 {
            let units = Int64.random(in: -ExactDecimal.max.units...ExactDecimal.max.units, using: &generator)
            texts.append(ExactDecimal(units: units).description)
            texts.append(String(Int64.random(in: -99_999_999_999...99_999_999_999, using: &generator)) + "." + String(UInt32.random(in: 0...UInt32.max, using: &generator)))
        }
        var readPlainly = 0
        for text in texts {
            let plain = Array(text.utf8).withUnsafeBytes { PaperLedgerMembers.plainUnits($0) }
            if let plain {
                #expect(plain == ExactDecimal(parsing: text)?.units, "\(text)")
                readPlainly += 1
            }
        }
        #expect(readPlainly > 5_000)
    }
}
