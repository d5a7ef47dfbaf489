import Domain
import Foundation
import Stores

/// The memory of the rows' 30-minute price histories (issue 18: RSS ≤ 50 MB at 4 × 500 symbols with
/// every history full). 2,000 `PriceHistory` values are filled with 1,800 seconds of stock-like prices
/// (a cent-tick random walk around $150, one point a second), and the heap growth, as glibc counts it,
/// is divided by the rows: what a full row costs, allocator rounding included. Also times `range`, which
/// the detail chart reads per frame.
struct PriceHistoryBenchmark: Sendable {
    var runs = 3
    var rows = 2_000
    var log: @Sendable (String) -> Void = { _ in }

    func run() -> Figures {
        var figures = Figures()
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        for run in 1...runs {
            log("price history, run \(run)")
            guard let heapBefore = HeapGauge.heapBytesInUse() else {
                figures.note("history", "not measured: no malloc_info (glibc only)")
                return figures
            }
            var histories: [PriceHistory] = []
            histories.reserveCapacity(rows)
            // The array of values is itself on the heap; leave it out of the per-row figure.
            let heapWithArray = HeapGauge.heapBytesInUse() ?? heapBefore
            var generator = SeededWalk(seed: UInt64(run))
            for _ in 0..<rows {
                var history = PriceHistory()
                var cents: Int64 = 15_000
                for second in 0..<PriceHistory.capacity {
                    cents = max(1, cents + generator.step())
                    history.record(ExactDecimal(units: cents * 1_000_000), at: start.addingTimeInterval(Double(second)))
                }
                histories.append(history)
            }
            guard let heapAfter = HeapGauge.heapBytesInUse(), histories.allSatisfy({ $0.count == PriceHistory.capacity }) else {
                figures.note("history", "not measured: the histories did not fill")
                return figures
            }
            let perRow = Double(heapAfter - heapWithArray) / Double(rows)
            figures.add("history.fullRow.bytes", perRow)
            // Issue 18's shape: 4 brokers × 500 symbols, every history full.
            figures.add("history.4x500.megabytes", perRow * 2_000 / 1_048_576)

            let reads = 20_000
            var lows: Int64 = 0
            let rangeStart = MonotonicTime.now()
            for index in 0..<reads {
                lows &+= histories[index % rows].range?.lowerBound.units ?? 0
            }
            let elapsed = MonotonicTime.now() - rangeStart
            // Every walk stays above zero, so the sum of the lows shows that each read looked at prices.
            guard lows > 0 else {
                figures.note("history", "not measured: a full history had no range")
                return figures
            }
            figures.add("history.range.nanoseconds", Double(elapsed) / Double(reads))
            withExtendedLifetime(histories) {}
        }
        return figures
    }
}

/// A repeatable walk of −3…+3 cents a second (splitmix64), so every run records the same prices.
private struct SeededWalk {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func step() -> Int64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return Int64(mixed % 7) - 3
    }
}
