import Foundation
import Stores

/// Replaying a paper-trading ledger at start (issue 15): a `Journal` of 100,000 `BenchFill`s is written
/// once, then opened afresh and read whole (`readNew`) in each run: reading the file, checking every
/// line's sequence number and checksum, and decoding every record.
struct JournalBenchmark: Sendable {
    var runs = 3
    var records = 100_000
    var log: @Sendable (String) -> Void = { _ in }

    func run() -> Figures {
        var figures = Figures()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cb-bench-journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("ledger.jsonl")
        do {
            log("journal: writing \(records) fills")
            let fills = (0..<records).map(BenchFill.sample)
            let writer = try Journal<BenchFill>(url: url)
            for start in stride(from: 0, to: records, by: 10_000) {
                try writer.append(contentsOf: Array(fills[start..<min(start + 10_000, records)]))
            }
            let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
            figures.note("journal", "\(records) fills, \(Format.bytes(Double(size))), \(size / max(records, 1)) bytes a line")
            for run in 1...runs {
                log("journal replay, run \(run)")
                let start = MonotonicTime.now()
                let replay = try Journal<BenchFill>(url: url).readNew()
                let elapsed = MonotonicTime.now() - start
                guard replay.records == fills, replay.tornTail == nil else {
                    figures.note("journal", "the replay did not give back the \(records) fills written (\(replay.records.count) records)")
                    return figures
                }
                figures.add("journal.replay.milliseconds", MonotonicTime.seconds(elapsed) * 1e3)
            }
            figures.add("journal.replay.records", Double(records))
        } catch {
            figures.note("journal", "not measured: \(error)")
        }
        return figures
    }
}
