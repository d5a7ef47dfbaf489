#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import Stores

/// Failures that are not about the file's content: where it lives, who changed it, what cannot be written.
@Suite struct JournalErrorTests {
    @Test func aDirectoryThatCannotBeCreatedIsNamed() throws {
        try TemporaryDirectory.with { dir in
            // A file where a directory should be fails for root too, unlike permissions.
            try LedgerFixture.write("not a directory", to: dir.path("state"))
            let url = dir.path("state/paper/ledger.jsonl")

            let error = try JournalReplayTests.error { _ = try Journal<TestFill>(url: url) }

            guard case .io(.createDirectory, let path, let reason, let code) = error else {
                Issue.record("expected a createDirectory error, got \(error)")
                return
            }
            #expect(path == dir.path("state/paper").path)
            #expect(code == ENOTDIR)
            #expect(reason == "Not a directory")
            #expect(error.description == "cannot create the directory \(path): Not a directory; check that the directory exists and is writable by you")
        }
    }

    @Test func aFileShorterThanWhatWasReadIsRefused() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let journal = try Journal<TestFill>(url: url)
            try journal.append(contentsOf: [.numbered(1), .numbered(2)])
            try LedgerFixture.write(LedgerFixture.lines(1).joined(), to: url)

            let error = try JournalReplayTests.error { _ = try journal.readNew() }

            let written = LedgerFixture.lines(2).joined().utf8.count
            #expect(error == .shrunk(path: url.path, size: LedgerFixture.lines(1).joined().utf8.count, alreadyRead: written))
            #expect(error.description.contains("another program truncated or replaced it"))
        }
    }

    @Test func aRecordJSONCannotHoldIsRefusedAndNothingIsWritten() throws {
        struct Reading: Codable, Sendable, Equatable { var value: Double }
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let journal = try Journal<Reading>(url: url)

            let error = try JournalReplayTests.error { try journal.append(Reading(value: .nan)) }

            guard case .unencodable(let reason) = error else {
                Issue.record("expected unencodable, got \(error)")
                return
            }
            #expect(reason.hasPrefix("value: "))
            #expect(try LedgerFixture.bytes(url) == [])
            #expect(try journal.append(Reading(value: 1.5)).sequences == 1..<2, "the journal goes on")

            var seen: [Reading] = []
            let deciding = try JournalReplayTests.error { _ = try journal.append { _ in seen.append(Reading(value: 2)); return [Reading(value: .infinity)] } }
            #expect(seen == [Reading(value: 2)])
            guard case .unencodable = deciding else {
                Issue.record("expected unencodable, got \(deciding)")
                return
            }
            #expect(try Journal<Reading>(url: url).readNew().records == [Reading(value: 1.5)])
        }
    }

    /// A full disk in the middle of the write: the half line is taken back, the journal goes on, and
    /// the other instance's record the failed append had read is handed over by the next one.
    @Test func aWriteCutShortIsTakenBackAndNothingIsSkipped() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let failures = LockedBox(1)
            let fullOnce = JournalWriting(
                writeAll: { descriptor, path, bytes throws(JournalError) in
                    var fail = false
                    failures.update { remaining in
                        fail = remaining > 0
                        remaining -= 1
                    }
                    guard fail else { return try JournalWriting.live.writeAll(descriptor, path, bytes) }
                    try JournalWriting.live.writeAll(descriptor, path, Array(bytes.prefix(bytes.count / 2)))
                    throw .io(operation: .write, path: path, reason: "No space left on device", code: ENOSPC)
                },
                sync: JournalWriting.live.sync)
            let other = try Journal<TestFill>(url: url)
            let journal = try Journal<TestFill>(url: url, lockTimeout: .seconds(10), writing: fullOnce)
            try other.append(.numbered(1, writer: "other"))

            let error = try JournalReplayTests.error { try journal.append(.numbered(2)) }

            #expect(error == .io(operation: .write, path: url.path, reason: "No space left on device", code: ENOSPC))
            #expect(error.description.hasSuffix("the record was not saved"))
            #expect(try LedgerFixture.bytes(url) == Array(LedgerFixture.line(1, LedgerFixture.record(.numbered(1, writer: "other"))).utf8))
            let retry = try journal.append(.numbered(2))
            #expect(retry.sequences == 2..<3)
            #expect(retry.appendedByOthers.records == [.numbered(1, writer: "other")], "read by the failed append, handed over now")
            #expect(retry.appendedByOthers.sequences == 1..<2)
            #expect(try Journal<TestFill>(url: url).readNew().records == [.numbered(1, writer: "other"), .numbered(2)])
        }
    }

    /// After a failed fsync nobody knows what the disk holds: the line is taken back and the instance
    /// refuses to go on, as databases do.
    @Test func aFailedFlushStopsTheInstance() throws {
        try TemporaryDirectory.with { dir in
            let url = dir.path("ledger.jsonl")
            let failingSync = JournalWriting(
                writeAll: JournalWriting.live.writeAll,
                sync: { _, path throws(JournalError) in throw .io(operation: .sync, path: path, reason: "Input/output error", code: EIO) })
            let journal = try Journal<TestFill>(url: url, lockTimeout: .seconds(10), writing: failingSync)

            let error = try JournalReplayTests.error { try journal.append(.numbered(1)) }

            #expect(error == .io(operation: .sync, path: url.path, reason: "Input/output error", code: EIO))
            #expect(try LedgerFixture.bytes(url) == [], "the unflushed line is taken back")
            let next = try JournalReplayTests.error { _ = try journal.readNew() }
            guard case .unusable(url.path, let cause) = next else {
                Issue.record("expected unusable, got \(next)")
                return
            }
            #expect(cause == error.description)
            #expect(next.description.contains("restart to read it again from disk"))
            #expect(try Journal<TestFill>(url: url).append(.numbered(1)).sequences == 1..<2, "another instance is not affected")
        }
    }

    @Test func messagesEscapeWhatCameFromOutside() {
        let path = "/tmp/\u{1B}[2Jledger"
        let error = JournalError.corrupt(line: 3, reason: "bad \u{7}", path: path)
        #expect(!error.description.contains("\u{1B}"))
        #expect(!error.description.contains("\u{7}"))
        #expect(error.description.contains("\\u{1b}[2Jledger"))
        let torn = JournalTornTail(path: path, line: 2, byteCount: 5, reason: "no newline at the end", savedTo: path + ".torn-2")
        #expect(!torn.message.contains("\u{1B}"))
    }
}
