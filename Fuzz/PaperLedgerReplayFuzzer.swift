import Domain
import Foundation
import Stores

/// Fuzzes the paper broker's ledger as a start-up reads it: `Journal<PaperLedgerRecord>.readNew` on a real
/// file, each record applied to `PaperLedgerState` in order, then what the broker does next with the
/// state (values every position, asks what quotes would fill or expire, applies those records). The
/// first byte picks what the rest is, as in JournalReplayFuzzer.swift:
///
/// - 0: the ledger file itself;
/// - 1: choices for a run of records, mostly ones that follow from each other (an opening, orders, their
///   triggers, fills, cancels) with prices from cents to the range's ends, appended by a real `Journal`;
///   replayed, they must come back exactly; then the file is damaged and replayed again;
/// - 2: record bodies, one a line, each with a right envelope and checksum.
///
/// Invariants: the replay checks of Support/LedgerFuzzing.swift; nothing traps on any record; a line the
/// state refuses is refused at its own number with an escaped message, and changes nothing; records the
/// state decides itself (fills, expiries) always apply.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let mode = bytes.first else { return 0 }
    var choices = FuzzBytes(bytes.dropFirst())
    let scratch = PaperFuzzRun.scratch
    switch mode % 3 {
    case 0:
        PaperFuzzRun.replay(Array(choices.rest), choices: &choices)
    case 1:
        var script = PaperLedgerScript()
        let records = (0..<choices.int(in: 1...12)).map { _ in script.next(&choices) }
        scratch.clear()
        do throws(JournalError) {
            try Journal<PaperLedgerRecord>(url: scratch.ledger).append(contentsOf: records)
        } catch {
            fuzzInvariant(false, "appending \(records) failed: \(error)")
        }
        let written = scratch.contents(of: scratch.ledger.path) ?? []
        let replayed = PaperFuzzRun.replay(written, choices: &choices)
        fuzzInvariant(replayed == records, "appended \(records), replayed \(String(describing: replayed))")
        PaperFuzzRun.replay(LedgerFuzzing.damaged(written, &choices), choices: &choices)
    default:
        PaperFuzzRun.replay(LedgerFuzzing.ledger(bodies: LedgerFuzzing.bodies(choices.rest)), choices: &choices)
    }
    return 0
}

enum PaperFuzzRun {
    nonisolated(unsafe) static let scratch = ScratchLedger()
    static let path = "/home/user/.commonbroker/paper\u{1b}[2J.jsonl"

    /// Replays `bytes` and applies what it gives; the records, or nil when the journal refused the file.
    @discardableResult
    static func replay(_ bytes: [UInt8], choices: inout FuzzBytes) -> [PaperLedgerRecord]? {
        guard let records = LedgerFuzzing.check(bytes, as: PaperLedgerRecord.self, in: scratch) else { return nil }
        var state = PaperLedgerState(
            brokerID: "paper",
            configuration: PaperAccount.Configuration(
                startingCash: 100_000, commission: CommissionSchedule(perShare: ExactDecimal(units: 500_000), minimumPerOrder: 1), allowShort: true))
        for (offset, record) in records.enumerated() {
            let line = offset + 1
            let before = (state.lastLine, state.orders, state.fills, state.account.cash)
            do throws(PaperLedgerInconsistency) {
                try state.apply(record, line: line)
            } catch {
                fuzzInvariant(error.line == line, "line \(line) refused as line \(error.line): \(error)")
                LedgerFuzzing.checkVisible(PaperBrokerError.inconsistent(error, path: path).description)
                fuzzInvariant(before == (state.lastLine, state.orders, state.fills, state.account.cash), "a refused line \(line) changed the state")
                return records
            }
        }
        afterReplay(&state, &choices)
        return records
    }

    /// What the broker does with a replayed state: values the positions, then, for a quote on each symbol
    /// with open orders, applies the triggers, fills and expiries the state itself decides.
    static func afterReplay(_ state: inout PaperLedgerState, _ choices: inout FuzzBytes) {
        var valuation = PaperValuation(brokerID: state.brokerID)
        valuation.revalueAll(account: state.account)
        _ = valuation.summary(of: state.account)
        let now = Date(timeIntervalSinceReferenceDate: 817_254_300)
        for symbol in state.symbolsWithOpenOrders.sorted() {
            let quote = QuoteSnapshot(
                bid: PaperLedgerScript.price(&choices), ask: PaperLedgerScript.price(&choices),
                last: PaperLedgerScript.price(&choices), time: now)
            let records = state.executions(of: symbol, on: quote, marketOpen: choices.bool(), at: now, firstLine: state.lastLine + 1)
            apply(records, to: &state)
            valuation.price(symbol, last: quote.last, account: state.account)
        }
        apply(state.expiries(at: now.addingTimeInterval(86_400 * 7)), to: &state)
        _ = valuation.summary(of: state.account)
    }

    static func apply(_ records: [PaperLedgerRecord], to state: inout PaperLedgerState) {
        for record in records {
            do throws(PaperLedgerInconsistency) {
                try state.apply(record, line: state.lastLine + 1)
            } catch {
                fuzzInvariant(false, "the state refused its own record \(record): \(error)")
            }
        }
    }
}

/// Ledger records drawn from choices, mostly about orders placed earlier in the same run, so that fills,
/// triggers and cancels reach the state's arithmetic rather than stopping at "no such order".
struct PaperLedgerScript {
    private var placed: [(id: OrderID, quantity: ExactDecimal)] = []
    private var count = 0
    private let time = 817_254_237.33

    mutating func next(_ choices: inout FuzzBytes) -> PaperLedgerRecord {
        count += 1
        let at = Date(timeIntervalSinceReferenceDate: time + Double(count) / 100)
        if count == 1 || choices.int(in: 0...15) == 0 {
            return .accountOpened(PaperAccountOpened(startingCash: Self.amount(&choices), time: at))
        }
        let known = placed.isEmpty || choices.int(in: 0...7) == 0 ? nil : choices.pick(placed)
        let id = known?.id ?? OrderID("P-\(choices.int(in: 1...20))")
        switch choices.int(in: 0...6) {
        case 0, 1:
            let quantity = Self.quantity(&choices)
            let request = (try? OrderRequest(
                symbol: choices.pick(["AAPL", "msft", "BRK.B", "X"]), side: choices.pick([.buy, .sell, .sellShort, .buyToCover]),
                quantity: quantity, type: Self.type(&choices), timeInForce: choices.pick([.day, .gtc]),
                clientOrderID: ClientOrderID("c-\(count)")))
                ?? (try! OrderRequest(symbol: "AAPL", side: .buy, quantity: 1, type: .market, timeInForce: .gtc, clientOrderID: ClientOrderID("c-\(count)")))
            let newID = OrderID("P-\(count)")
            placed.append((newID, request.quantity))
            return .placed(PaperOrderPlaced(
                orderID: newID, request: request, time: at, expiresAt: choices.bool() ? at.addingTimeInterval(3_600) : nil,
                bid: Self.optionalPrice(&choices), ask: Self.optionalPrice(&choices), last: Self.optionalPrice(&choices)))
        case 2:
            return .triggered(PaperOrderTriggered(orderID: id, worksAs: choices.bool() ? .market : .limit(Self.price(&choices)), lastTrade: Self.price(&choices), time: at))
        case 3, 4:
            return .filled(PaperOrderFilled(
                orderID: id, fillID: FillID("F-\(count)"), quantity: choices.bool() ? (known?.quantity ?? 1) : Self.quantity(&choices),
                price: Self.price(&choices), priceSource: choices.pick([.ask, .bid, .lastTrade, .broker]),
                commission: choices.bool() ? 0 : Self.amount(&choices), time: at))
        case 5:
            return .cancelled(PaperOrderCancelled(orderID: id, time: at, replacedBy: choices.bool() ? OrderID("P-\(count + 1)") : nil))
        default:
            return choices.bool()
                ? .expired(PaperOrderExpired(orderID: id, time: at))
                : .rejected(PaperOrderRejected(orderID: id, reason: choices.text(), time: at))
        }
    }

    static func type(_ choices: inout FuzzBytes) -> OrderType {
        switch choices.int(in: 0...3) {
        case 0: .market
        case 1: .limit(price(&choices))
        case 2: .stop(price(&choices))
        default: .stopLimit(stop: price(&choices), limit: price(&choices))
        }
    }

    /// Prices as quotes have them (cents, 1/100 cents below $1), and now and then any amount.
    static func price(_ choices: inout FuzzBytes) -> ExactDecimal {
        switch choices.int(in: 0...3) {
        case 0: ExactDecimal(units: Int64(choices.int(in: 1...100_000)) * 1_000_000)
        case 1: ExactDecimal(units: Int64(choices.int(in: 1...10_000)) * 10_000)
        case 2: ExactDecimal(units: Int64(choices.int(in: 1...1_000_000)) * 1_000_000)
        default: amount(&choices).magnitude
        }
    }

    static func optionalPrice(_ choices: inout FuzzBytes) -> ExactDecimal? {
        choices.bool() ? price(&choices) : nil
    }

    static func quantity(_ choices: inout FuzzBytes) -> ExactDecimal {
        switch choices.int(in: 0...2) {
        case 0: ExactDecimal(choices.int(in: 1...1_000))
        case 1: ExactDecimal(units: Int64(choices.int(in: 1...100_000_000)))
        default: Swift.max(amount(&choices).magnitude, ExactDecimal(units: 1))
        }
    }

    /// Any amount in the range, its ends likelier than chance would make them.
    static func amount(_ choices: inout FuzzBytes) -> ExactDecimal {
        switch choices.int(in: 0...4) {
        case 0: ExactDecimal.max
        case 1: -ExactDecimal.max
        case 2: ExactDecimal(units: 1)
        default: ExactDecimal(units: Int64(choices.int(in: -9_000_000_000_000_000_000...9_000_000_000_000_000_000)))
        }
    }
}
