import Domain
import Foundation
import PaperTrading
import Stores
import Testing

@Suite struct PaperLedgerRecordTests {
    static func samples() throws -> [PaperLedgerRecord] {
        let time = Date(timeIntervalSinceReferenceDate: 816_307_200.25)
        return [
            .accountOpened(PaperAccountOpened(startingCash: try d("100000.5"), time: time)),
            .placed(PaperOrderPlaced(
                orderID: OrderID("P-2"), request: try order(.buy, 10, .stopLimit(stop: 190, limit: try d("190.25")), timeInForce: .gtc),
                time: time, expiresAt: nil, bid: try d("187.5"), ask: try d("187.52"), last: nil)),
            .placed(PaperOrderPlaced(
                orderID: OrderID("P-3"), request: try order(.sellShort, 1, symbol: "BRK.B"), time: time,
                expiresAt: time.addingTimeInterval(3_600), bid: nil, ask: nil, last: try d("0.0001"))),
            .triggered(PaperOrderTriggered(orderID: OrderID("P-2"), worksAs: .limit(try d("190.25")), lastTrade: 190, time: time)),
            .filled(PaperOrderFilled(
                orderID: OrderID("P-2"), fillID: FillID("F-5"), quantity: 10, price: try d("190.2"),
                priceSource: .lastTrade, commission: try d("0.05"), time: time)),
            .cancelled(PaperOrderCancelled(orderID: OrderID("P-3"), time: time)),
            .cancelled(PaperOrderCancelled(orderID: OrderID("P-7"), time: time, replacedBy: OrderID("P-8"))),
            .expired(PaperOrderExpired(orderID: OrderID("P-9"), time: time)),
            .rejected(PaperOrderRejected(orderID: OrderID("P-10"), reason: "too large \u{1b}[2J", time: time)),
        ]
    }

    @Test func everyRecordComesBackTheSameThroughJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for record in try Self.samples() {
            let data = try encoder.encode(record)
            #expect(try JSONDecoder().decode(PaperLedgerRecord.self, from: data) == record)
        }
    }

    @Test func aFillIsOneFlatObjectWithExactDecimalText() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let fill = try Self.samples()[4]
        let text = String(decoding: try encoder.encode(fill), as: UTF8.self)
        #expect(text == #"{"commission":"0.05","fillID":"F-5","orderID":"P-2","price":"190.2","priceSource":"last_trade","quantity":"10","time":816307200.25,"type":"filled"}"#)
    }

    @Test func theJournalWritesAndReadsEveryRecord() throws {
        let rig = try PaperRig()
        let records = try Self.samples()
        try Journal<PaperLedgerRecord>(url: rig.ledgerURL).append(contentsOf: records)
        let replay = try Journal<PaperLedgerRecord>(url: rig.ledgerURL).readNew()
        #expect(replay.records == records && replay.firstSequence == 1)
    }

    @Test func anUnknownTypeNamesItAndTheTypesThereAre() throws {
        let data = Data(#"{"type":"margin_call","orderID":"P-1"}"#.utf8)
        #expect {
            try JSONDecoder().decode(PaperLedgerRecord.self, from: data)
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription.contains(#""margin_call""#) && context.debugDescription.contains("accountOpened, placed")
        }
    }

    @Test func aPlacedOrderThatTheTicketCouldNotMakeIsRefused() throws {
        let data = Data(#"{"type":"placed","orderID":"P-2","time":0,"request":{"symbol":"AAPL","side":"buy","quantity":"-5","type":{"type":"market"},"timeInForce":"day","clientOrderID":"c"}}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PaperLedgerRecord.self, from: data) }
    }
}
