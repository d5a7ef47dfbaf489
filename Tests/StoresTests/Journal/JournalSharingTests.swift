#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import Stores

/// Several instances (as several running apps) on one ledger.
@Suite struct JournalSharingTests {
    @Test func readNewPicksUpWhatAnotherInstanceAppended() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let first = try Journal<TestFill>(url: url)
            let second = try Journal<TestFill>(url: url)
            _ = try second.readNew()

            try first.append(.numbered(1, writer: "first"))
            try first.append(contentsOf: [.numbered(2, writer: "first"), .numbered(3, writer: "first")])

            let news = try second.readNew()
            #expect(news.records == (1...3).map { TestFill.numbered($0, writer: "first") })
            #expect(news.sequences == 1..<4)
            #expect(try second.readNew().records == [], "each record is handed over once")
        }
    }

    @Test func anAppendHandsOverWhatOthersAppendedBeforeIt() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let first = try Journal<TestFill>(url: url)
            let second = try Journal<TestFill>(url: url)
            try first.append(.numbered(1, writer: "first"))

            let receipt = try second.append(.numbered(2, writer: "second"))

            #expect(receipt.appendedByOthers.records == [.numbered(1, writer: "first")])
            #expect(receipt.appendedByOthers.sequences == 1..<2)
            #expect(receipt.sequences == 2..<3)
            let mine = try first.append(.numbered(3, writer: "first"))
            #expect(mine.appendedByOthers.records == [.numbered(2, writer: "second")])
            #expect(mine.sequences == 3..<4)
        }
    }

    @Test func appendDecidingSeesTheOthersRecordsBeforeChoosingItsOwn() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let first = try Journal<TestFill>(url: url)
            let second = try Journal<TestFill>(url: url)
            try first.append(contentsOf: [.numbered(1), .numbered(2)])

            var seen: [TestFill] = []
            let receipt = try second.append { others in
                seen = others.records
                return others.records.count == 2 ? [.numbered(3)] : []
            }
            #expect(seen == [.numbered(1), .numbered(2)])
            #expect(receipt.sequences == 3..<4)

            let declined = try second.append { _ in [] }
            #expect(declined.sequences == 4..<4)
            #expect(try Journal<TestFill>(url: url).readNew().records == (1...3).map { TestFill.numbered($0) })
        }
    }

    /// Two instances, each on its own thread as two processes would be, append 1,000 records each as
    /// fast as they can: the file ends with all 2,000, each once, in contiguous sequence, and each
    /// writer's own records in its order.
    @Test func twoInstancesAppendingAtOnceLoseAndRepeatNothing() async throws {
        try await TemporaryDirectory.withAsync { dir in
            let url = dir.path("ledger.jsonl")
            let writers = ["left", "right"]
            let journals = try writers.map { _ in try Journal<TestFill>(url: url) }
            let perWriter = 1_000
            let outcomes = LockedBox<[String: Outcome]>([:])
            let failures = LockedBox<[String]>([])

            await withTaskGroup(of: Void.self) { group in
                for (index, writer) in writers.enumerated() {
                    group.addTask {
                        await Self.onOwnThread {
                            var sequences: [Int] = []
                            var others: [TestFill] = []
                            for n in 1...perWriter {
                                do {
                                    let receipt = try journals[index].append(.numbered(n, writer: writer))
                                    sequences.append(contentsOf: receipt.sequences)
                                    others += receipt.appendedByOthers.records
                                } catch {
                                    failures.update { $0.append("\(writer) \(n): \(error)") }
                                }
                            }
                            outcomes.update { $0[writer] = Outcome(sequences: sequences, others: others) }
                        }
                    }
                }
            }

            #expect(failures.current == [])
            let replay = try Journal<TestFill>(url: url).readNew()
            #expect(replay.sequences == 1..<(2 * perWriter + 1))
            #expect(Set(replay.records).count == 2 * perWriter, "no record twice")
            for writer in writers {
                let own = replay.records.filter { $0.writer == writer }
                #expect(own == (1...perWriter).map { TestFill.numbered($0, writer: writer) }, "\(writer)'s records, each once, in order")
            }
            var results = outcomes.current
            for (index, writer) in writers.enumerated() {
                // What the other appended after this one's last append.
                results[writer]?.others += try journals[index].readNew().records
            }
            let allSequences = writers.flatMap { results[$0]?.sequences ?? [] }
            #expect(allSequences.sorted() == Array(1...(2 * perWriter)), "every sequence number given out once")
            for (writer, other) in [("left", "right"), ("right", "left")] {
                let handed = results[writer]?.others.map(\.id) ?? []
                let theirs = replay.records.filter { $0.writer == other }.map(\.id)
                #expect(handed.count == theirs.count, "\(writer) was handed each of \(other)'s records once")
                #expect(handed == theirs, "\(writer) was handed \(other)'s records in order")
                #expect(results[writer]?.others.allSatisfy { $0.writer == other } == true)
            }
        }
    }

    @Test func waitingForTheLockGivesUpAfterTheTimeout() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let journal = try Journal<TestFill>(url: url, lockTimeout: .zero)
            // Another process's lock: flock locks belong to the open file description.
            let other = open(url.path, O_RDWR)
            defer { close(other) }
            #expect(flock(other, LOCK_EX) == 0)

            let error = try JournalReplayTests.error { try journal.append(.numbered(1)) }

            #expect(error == .lockTimeout(path: url.path, waited: .zero))
            #expect(error.description.contains("stayed locked by another instance"))
            #expect(try LedgerFixture.bytes(url) == [], "nothing written without the lock")
            flock(other, LOCK_UN)
            #expect(try journal.append(.numbered(1)).sequences == 1..<2)
        }
    }

    /// A crash of another instance in the middle of its append, seen by one that is still running.
    @Test func aLiveInstanceRepairsATornLineLeftByAnotherThatCrashed() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let survivor = try Journal<TestFill>(url: url)
            try survivor.append(.numbered(1))
            let handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(LedgerFixture.line(2, LedgerFixture.record(.numbered(2))).utf8.prefix(20)))
            try handle.close()

            let receipt = try survivor.append(.numbered(2))

            #expect(receipt.appendedByOthers.records == [])
            #expect(receipt.appendedByOthers.tornTail?.line == 2)
            #expect(receipt.sequences == 2..<3)
            #expect(try Journal<TestFill>(url: url).readNew().records == [.numbered(1), .numbered(2)])
        }
    }

    /// What one writer was told: the sequence numbers of its appends and the others' records.
    struct Outcome: Sendable {
        var sequences: [Int]
        var others: [TestFill]
    }

    static func onOwnThread(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                work()
                done.resume()
            }.start()
        }
    }
}
