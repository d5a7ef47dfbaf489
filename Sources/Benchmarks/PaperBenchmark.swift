import Domain
import Foundation
import PaperTrading
import Stores

/// The paper broker's two targets of issue 15, on its own types:
///
/// - Start-up replay: a ledger of 100,000 fills as the paper broker writes it (each fill after its
///   order's `placed` line: 200,001 lines with the account's opening) is written once; each run opens it
///   afresh, reads it whole (`Journal.readNew`: lines, checksums, decoding) and applies every line to a
///   `PaperLedgerState`, then values the positions (`PaperValuation.revalueAll`), which is what
///   `PaperBroker.start` does before its first quote. Target ≤ 200 ms.
/// - A quote's P&L: an account holding 1,000 symbols; one quote revalues its symbol's position and the
///   account's totals (`PaperValuation.price`). Timed over many quotes, each for another symbol, and
///   given per quote. Target ≤ 1 ms. Revaluing all 1,000 positions is timed too, for scale.
struct PaperBenchmark: Sendable {
    var runs = 3
    var fills = 100_000
    var positions = 1_000
    var quotes = 100_000
    var log: @Sendable (String) -> Void = { _ in }

    func run() -> Figures {
        var figures = Figures()
        measureReplay(into: &figures)
        measureValuation(into: &figures)
        return figures
    }

    // MARK: Replay

    private func measureReplay(into figures: inout Figures) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cb-bench-paper-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("paper-ledger.jsonl")
        do {
            log("paper: writing a ledger of \(fills) fills")
            let records = try Self.ledger(fills: fills)
            let writer = try Journal<PaperLedgerRecord>(url: url)
            for start in stride(from: 0, to: records.count, by: 10_000) {
                try writer.append(contentsOf: Array(records[start..<min(start + 10_000, records.count)]))
            }
            let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
            figures.note("paper.replay", "\(records.count) lines, \(Format.bytes(Double(size)))")
            for run in 1...runs {
                log("paper replay, run \(run)")
                let replay = try Self.replay(url)
                guard replay.fills == fills, replay.lines == records.count else {
                    figures.note("paper.replay", "the replay gave \(replay.fills) fills, not the \(fills) written")
                    return
                }
                figures.add("paper.replay.milliseconds", MonotonicTime.seconds(replay.applied - replay.start) * 1e3)
                figures.add("paper.replay.readMilliseconds", MonotonicTime.seconds(replay.read - replay.start) * 1e3)
                figures.add("paper.replay.applyMilliseconds", MonotonicTime.seconds(replay.applied - replay.read) * 1e3)
                // Every thread's CPU time: what the replay costs however busy the machine is.
                figures.add("paper.replay.cpuMilliseconds", MonotonicTime.seconds(replay.readCPU + replay.applyCPU) * 1e3)
                figures.add("paper.replay.readCPUMilliseconds", MonotonicTime.seconds(replay.readCPU) * 1e3)
                figures.add("paper.replay.applyCPUMilliseconds", MonotonicTime.seconds(replay.applyCPU) * 1e3)
            }
            figures.add("paper.replay.fills", Double(fills))
        } catch {
            figures.note("paper.replay", "not measured: \(error)")
        }
    }

    /// What one replay took: monotonic stamps at its start, after reading and after applying, and the
    /// process's CPU time in each part.
    struct Replay {
        var start, read, applied: UInt64
        var readCPU, applyCPU: UInt64
        var fills, lines: Int
    }

    /// One start-up replay of the ledger at `url`, as `PaperBroker.start` does it. A function of its own
    /// so a profiler can count only this (`valgrind --tool=callgrind --toggle-collect='*PaperBenchmark*replay*'`).
    @inline(never)
    static func replay(_ url: URL) throws -> Replay {
        let cpuStart = MonotonicTime.processCPU()
        let start = MonotonicTime.now()
        let replay = try Journal<PaperLedgerRecord>(url: url).readNew()
        let read = MonotonicTime.now()
        let cpuRead = MonotonicTime.processCPU()
        var state = PaperLedgerState(brokerID: "paper", configuration: .init(startingCash: 0))
        try state.apply(contentsOf: replay.records, firstLine: replay.firstSequence)
        var valuation = PaperValuation(brokerID: "paper")
        valuation.revalueAll(account: state.account)
        let applied = MonotonicTime.now()
        let cpuApplied = MonotonicTime.processCPU()
        return Replay(
            start: start, read: read, applied: applied, readCPU: cpuRead - cpuStart, applyCPU: cpuApplied - cpuRead,
            fills: state.fills.count, lines: state.lastLine)
    }

    /// An account's life in `fills` market orders over 50 symbols: each symbol bought twice, then sold
    /// twice (FIFO closes the lots in turn), at prices that wander, a commission on each.
    static func ledger(fills: Int) throws -> [PaperLedgerRecord] {
        let symbols = (0..<50).map { "S\($0)" }
        let epoch = Date(timeIntervalSince1970: 1_795_000_000)
        var records: [PaperLedgerRecord] = [.accountOpened(PaperAccountOpened(startingCash: 10_000_000, time: epoch))]
        records.reserveCapacity(1 + 2 * fills)
        for index in 0..<fills {
            let symbol = symbols[index % symbols.count]
            let round = index / symbols.count
            let side: OrderSide = round % 4 < 2 ? .buy : .sell
            let price = ExactDecimal(units: Int64(100 + (index * 7_919) % 50) * ExactDecimal.unitsPerOne + Int64(index % 100) * 1_000_000)
            let time = epoch.addingTimeInterval(Double(index))
            let orderID = OrderID("P-\(records.count + 1)")
            let request = try OrderRequest(
                symbol: symbol, side: side, quantity: 10, type: .market, timeInForce: .gtc,
                clientOrderID: ClientOrderID("bench-\(index)"))
            records.append(.placed(PaperOrderPlaced(
                orderID: orderID, request: request, time: time, expiresAt: nil, bid: price, ask: price, last: price)))
            records.append(.filled(PaperOrderFilled(
                orderID: orderID, fillID: FillID("F-\(records.count + 1)"), quantity: 10, price: price,
                priceSource: side.isBuy ? .ask : .bid, commission: 1, time: time)))
        }
        return records
    }

    // MARK: Valuation

    private func measureValuation(into figures: inout Figures) {
        log("paper: P&L of \(positions) positions")
        var account = PaperAccount(configuration: .init(startingCash: 1_000_000_000))
        let symbols = (0..<positions).map { "P\($0)" }
        do {
            for (index, symbol) in symbols.enumerated() {
                try account.apply(Fill(
                    id: FillID("F-\(index)"), orderID: OrderID("P-\(index)"), symbol: symbol, side: .buy,
                    quantity: ExactDecimal(10 + index % 90), price: ExactDecimal(50 + index % 400), commission: 0,
                    time: Date(timeIntervalSince1970: 1_795_000_000), priceSource: .ask))
            }
        } catch {
            figures.note("paper.valuation", "not measured: \(error)")
            return
        }
        let prices = (0..<quotes).map { ExactDecimal(units: Int64(50 + $0 % 400) * ExactDecimal.unitsPerOne + Int64($0 % 97) * 1_000_000) }
        for run in 1...runs {
            log("paper P&L, run \(run)")
            var valuation = PaperValuation(brokerID: "paper")
            let allStart = MonotonicTime.now()
            valuation.revalueAll(account: account)
            let allEnd = MonotonicTime.now()
            var equity: Int64 = 0
            let start = MonotonicTime.now()
            for index in 0..<quotes {
                valuation.price(symbols[index % symbols.count], last: prices[index], account: account)
                equity &+= valuation.summary(of: account).equity.units
            }
            let elapsed = MonotonicTime.now() - start
            // Kept, so the loop cannot be optimized away.
            guard equity != 0 else { return }
            figures.add("paper.valuation.quoteMicroseconds", MonotonicTime.seconds(elapsed) * 1e6 / Double(quotes))
            figures.add("paper.valuation.allPositionsMicroseconds", MonotonicTime.seconds(allEnd - allStart) * 1e6)
        }
        figures.add("paper.valuation.positions", Double(positions))
    }
}
