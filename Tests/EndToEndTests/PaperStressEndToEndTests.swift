import Domain
import Foundation
import PaperTrading
import Stores
import TestSupport
import Testing

/// `kill -9` at random moments during a burst of paper orders never loses an acknowledged fill and
/// never duplicates one (issue 15). The binary (`commonbroker paper-stress`) prints `ACK <order> <line>`
/// only after a fill's line is on disk; it is killed 50 times in a row on one ledger, each run replaying
/// what the killed one left (a torn tail included). Odd runs are killed 3–200 ms after the spawn, which
/// may land in the start-up and the replay as well as in the burst; even runs 3–200 ms after their first
/// acknowledgement, which lands in the burst however slow the machine. After every kill the test reads a
/// copy of the ledger with the Journal and checks it.
@Suite(.serialized) struct PaperStressEndToEndTests {
    var binary: String { CommonBrokerBinary.path }

    /// `ACK <order> <line>` lines that were written whole.
    private func acknowledgements(in text: String) throws -> [(order: String, line: Int)] {
        try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
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
        let stderr = directory.appendingPathComponent("stderr.txt")

        let audit = try LedgerAudit(copy: directory.appendingPathComponent("audited.jsonl"))
        var random = SplitMix64(seed: 15)
        var acknowledged: [String: Int] = [:]
        for run in 1...50 {
            let delay = Duration.milliseconds(3 + Int(random.next() % 198))
            let outcome = try await KilledProcess.run(
                binary, ["paper-stress", "--ledger", ledger.path, "--orders", "1000000", "--seed", "\(run)"],
                kill: run % 2 == 1 ? .afterStart(delay) : .afterFirstLine(delay), stderr: stderr)
            let errors = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
            #expect(outcome.wasKilled, "run \(run) ended by itself with status \(outcome.status): \(errors)")
            let acks = try acknowledgements(in: outcome.output)
            if run % 2 == 0 { #expect(!acks.isEmpty, "run \(run) was killed after its first line, yet acknowledged nothing") }
            for ack in acks {
                #expect(acknowledged[ack.order] == nil, "run \(run): \(ack.order) acknowledged twice")
                acknowledged[ack.order] = ack.line
            }
            try audit.check(ledger, acknowledged: acknowledged, after: run)
        }

        // Left alone, a run on the same ledger finishes: every order it places fills and is acknowledged.
        let outcome = try await KilledProcess.run(
            binary, ["paper-stress", "--ledger", ledger.path, "--orders", "20", "--seed", "51"], kill: .never, stderr: stderr)
        #expect(outcome.status == 0, "\((try? String(contentsOf: stderr, encoding: .utf8)) ?? "")")
        let last = try acknowledgements(in: outcome.output)
        #expect(last.count >= 20)
        for ack in last { acknowledged[ack.order] = ack.line }
        try audit.check(ledger, acknowledged: acknowledged, after: 51)
    }
}

/// Reads a ledger other processes write as it grows, with the Journal, and checks each time what every
/// ledger must say: lines in order from 1, at most a torn last line, each order filled at most once,
/// each fill id once, every acknowledged fill at its line, a state that replays line by line.
///
/// It reads a copy, never the ledger itself: the journal cuts a torn tail off the file it reads, and
/// the next run must meet the ledger as the killed one left it. The copy grows by what the ledger
/// gained, so each check reads only the new lines; the part already checked must not have changed.
private final class LedgerAudit {
    let copy: URL
    let journal: Journal<PaperLedgerRecord>
    var state = PaperLedgerState(brokerID: "paper", configuration: .init(startingCash: 0))
    var fillLineByOrder: [OrderID: Int] = [:]
    var fillIDs: Set<FillID> = []

    init(copy: URL) throws {
        self.copy = copy
        journal = try Journal(url: copy)
    }

    func check(_ ledger: URL, acknowledged: [String: Int], after run: Int) throws {
        // Killed before it made the ledger: then it cannot have acknowledged anything either.
        guard FileManager.default.fileExists(atPath: ledger.path) else {
            #expect(acknowledged.isEmpty, "run \(run): fills acknowledged but no ledger")
            return
        }
        let written = try Data(contentsOf: ledger)
        let checked = try Data(contentsOf: copy)
        #expect(written.prefix(checked.count) == checked, "run \(run): lines already checked have changed")
        let handle = try FileHandle(forWritingTo: copy)
        try handle.seekToEnd()
        try handle.write(contentsOf: written.dropFirst(checked.count))
        try handle.close()

        // Throws on a damaged line that is not the last (`.corrupt` names it): only a torn tail may be dropped.
        let replay = try journal.readNew()
        #expect(replay.firstSequence == state.lastLine + 1, "run \(run)")
        if let torn = replay.tornTail {
            #expect(torn.line == replay.sequences.upperBound, "run \(run): torn line \(torn.line) is not the last")
        }
        for (offset, record) in replay.records.enumerated() {
            let line = replay.firstSequence + offset
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
}
