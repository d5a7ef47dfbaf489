import Domain
import Foundation
import PaperTrading
import Stores
import TestSupport
import Testing

/// `kill -9` at random moments during a burst of paper orders never loses an acknowledged fill and
/// never duplicates one (issue 15). The binary (`commonbroker paper-stress`) prints `ACK <order> <line>`
/// only after a fill's line is on disk; it is killed 3–200 ms after it starts, 50 times in a row on one
/// ledger, each run replaying what the killed one left (its torn tail included). After every kill the
/// test reads a copy of the ledger with the Journal and checks it.
@Suite(.serialized) struct PaperStressEndToEndTests {
    var binary: String { CommonBrokerBinary.path }

    /// What the ledger must say after every run: each line in order from 1, at most a torn last line,
    /// each order filled at most once, every acknowledged fill at its line, and a state that replays.
    private func check(ledger: URL, acknowledged: [String: Int], in directory: URL, after run: Int) throws {
        // Killed before it made the ledger: then it cannot have acknowledged anything either.
        guard FileManager.default.fileExists(atPath: ledger.path) else {
            #expect(acknowledged.isEmpty, "run \(run): fills acknowledged but no ledger")
            return
        }
        // A copy: the journal cuts a torn tail off the file it reads, and the next run must meet it as left.
        let copy = directory.appendingPathComponent("check-\(run).jsonl")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: ledger, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }

        // Throws on a damaged line that is not the last (`.corrupt` names it): only a torn tail may be dropped.
        let replay = try Journal<PaperLedgerRecord>(url: copy).readNew()
        #expect(replay.firstSequence == 1, "run \(run)")
        if let torn = replay.tornTail {
            #expect(torn.line == replay.records.count + 1, "run \(run): torn line \(torn.line) is not the last")
        }

        var fillLineByOrder: [OrderID: Int] = [:]
        var fillIDs: Set<FillID> = []
        var state = PaperLedgerState(brokerID: "paper", configuration: .init(startingCash: 0))
        for (offset, record) in replay.records.enumerated() {
            let line = offset + 1
            if case .filled(let fill) = record {
                #expect(fillLineByOrder[fill.orderID] == nil,
                        "run \(run): order \(fill.orderID) filled twice, lines \(fillLineByOrder[fill.orderID] ?? 0) and \(line)")
                #expect(fillIDs.insert(fill.fillID).inserted, "run \(run): fill id \(fill.fillID) twice")
                fillLineByOrder[fill.orderID] = line
            }
            try state.apply(record, line: line)
        }
        for (order, line) in acknowledged {
            #expect(fillLineByOrder[OrderID(order)] == line, "run \(run): acknowledged fill of \(order) at line \(line) is not in the ledger")
        }
    }

    /// `ACK <order> <line>` lines that were written whole.
    private func acknowledgements(in output: URL) throws -> [(order: String, line: Int)] {
        let text = try String(contentsOf: output, encoding: .utf8)
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            let fields = line.split(separator: " ")
            let number = fields.count == 3 && fields[0] == "ACK" ? Int(fields[2]) : nil
            let parsed = try #require(number, "not an acknowledgement: \(line.debugDescription)")
            return (String(fields[1]), parsed)
        }
    }

    @Test func killedAtRandomMomentsItNeverLosesOrDuplicatesAnAcknowledgedFill() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("paper-stress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = directory.appendingPathComponent("ledger.jsonl")
        let stdout = directory.appendingPathComponent("stdout.txt")
        let stderr = directory.appendingPathComponent("stderr.txt")

        var random = SplitMix64(seed: 15)
        var acknowledged: [String: Int] = [:]
        var killedAfterAcknowledging = 0
        for run in 1...50 {
            let delay = Duration.milliseconds(3 + Int(random.next() % 198))
            let outcome = try await KilledProcess.run(
                binary, ["paper-stress", "--ledger", ledger.path, "--orders", "1000000", "--seed", "\(run)"],
                killAfter: delay, stdout: stdout, stderr: stderr)
            let errors = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
            #expect(outcome.wasKilled, "run \(run) ended by itself with status \(outcome.status): \(errors)")
            let acks = try acknowledgements(in: stdout)
            for ack in acks {
                #expect(acknowledged[ack.order] == nil, "run \(run): \(ack.order) acknowledged twice")
                acknowledged[ack.order] = ack.line
            }
            if !acks.isEmpty { killedAfterAcknowledging += 1 }
            try check(ledger: ledger, acknowledged: acknowledged, in: directory, after: run)
        }
        // The kills must land in the burst, not all before it: most runs got to acknowledge fills.
        #expect(killedAfterAcknowledging >= 25, "only \(killedAfterAcknowledging) of 50 runs acknowledged a fill before the kill")

        // Left alone, a run on the same ledger finishes: every order it places fills and is acknowledged.
        let outcome = try await KilledProcess.run(
            binary, ["paper-stress", "--ledger", ledger.path, "--orders", "20", "--seed", "51"],
            killAfter: nil, stdout: stdout, stderr: stderr)
        #expect(outcome.status == 0, "\((try? String(contentsOf: stderr, encoding: .utf8)) ?? "")")
        let last = try acknowledgements(in: stdout)
        #expect(last.count >= 20)
        for ack in last { acknowledged[ack.order] = ack.line }
        try check(ledger: ledger, acknowledged: acknowledged, in: directory, after: 51)
    }
}
