import Foundation
import TestSupport
@testable import Networking
import Testing

/// The JetStream calls the bus is built on, against a real nats-server with JetStream in a temporary
/// store: a bucket, put / get, create-only and compare-and-set writes (what a lease needs), deletes,
/// and watches that start with every key's latest value and survive a server restart.
@Suite struct NATSKeyValueTests {
    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    private static func text(_ entry: NATSKeyValueEntry?) -> String? { entry.map { String(decoding: $0.value, as: UTF8.self) } }

    private static func isEntry(_ event: NATSKeyValueWatchEvent, key: String, value: String? = nil) -> Bool {
        guard case .entry(let entry) = event else { return false }
        return entry.key == key && (value == nil || String(decoding: entry.value, as: UTF8.self) == value)
    }

    @Test func putThenGetGivesTheLatestValueAndItsRevision() async throws {
        try await NATSLiveServer.with { server, _ in
            let connection = try await NATSLiveServer.connect(server)
            let bucket = try await NATSKeyValue.create(bucket: "commonbroker", connection: connection)
            // Creating it again with the same configuration is fine (a second app instance does).
            _ = try await NATSKeyValue.create(bucket: "commonbroker", connection: connection)

            let key = "quote.demo." + NATSTokenEscaping.escape("BRK.B")
            #expect(key == "quote.demo.BRK=2EB")
            let first = try await bucket.put(key, Self.bytes("412.10"))
            let second = try await bucket.put(key, Self.bytes("412.11"))
            #expect(second > first)
            let entry = try #require(try await bucket.get(key))
            #expect(Self.text(entry) == "412.11")
            #expect(entry.revision == second)
            #expect(entry.key == key && entry.bucket == "commonbroker" && entry.operation == .put)
            let created = try #require(entry.created)
            #expect(abs(created.timeIntervalSinceNow) < 3600, "the server's timestamp, read to the nanosecond")
            #expect(try await bucket.get("quote.demo.NONE") == nil)

            await #expect(throws: NATSError.invalidSubject("quote.demo.^GSPC", reason: "as a KV key may hold only letters, digits and '-', '_', '/', '=', '.' (NATSTokenEscaping makes any text a legal token)")) {
                try await bucket.put("quote.demo.^GSPC", [])
            }
            #expect(throws: NATSError.self) { try NATSKeyValue(bucket: "has.dot", connection: connection) }
            await connection.close()
        }
    }

    @Test func createOnlyAndCompareAndSetRefuseWhatAnotherWriterChanged() async throws {
        try await NATSLiveServer.with { server, _ in
            let connection = try await NATSLiveServer.connect(server)
            let bucket = try await NATSKeyValue.create(bucket: "leases", connection: connection)
            let taken = try await bucket.create("lease.polygon", Self.bytes("host-a:1"))

            await #expect(throws: NATSError.wrongLastRevision(key: "lease.polygon", current: taken)) {
                try await bucket.create("lease.polygon", Self.bytes("host-b:2"))
            }
            let renewed = try await bucket.update("lease.polygon", Self.bytes("host-a:1 renewed"), expectedRevision: taken)
            await #expect(throws: NATSError.wrongLastRevision(key: "lease.polygon", current: renewed)) {
                try await bucket.update("lease.polygon", Self.bytes("host-b:2"), expectedRevision: taken)
            }
            #expect(Self.text(try await bucket.get("lease.polygon")) == "host-a:1 renewed")

            // Released: the key reads as empty and can be created again.
            try await bucket.delete("lease.polygon", expectedRevision: renewed)
            #expect(try await bucket.get("lease.polygon") == nil)
            let marker = try #require(try await bucket.entry("lease.polygon"))
            #expect(marker.operation == .delete && marker.value.isEmpty)
            let retaken = try await bucket.create("lease.polygon", Self.bytes("host-b:2"))
            #expect(retaken > marker.revision)
            #expect(Self.text(try await bucket.get("lease.polygon")) == "host-b:2")
            await connection.close()
        }
    }

    @Test func aWatchStartsWithEveryLatestValueThenFollowsChanges() async throws {
        try await NATSLiveServer.with { server, _ in
            let connection = try await NATSLiveServer.connect(server)
            let bucket = try await NATSKeyValue.create(bucket: "quotes", connection: connection)
            try await bucket.put("quote.demo.AAPL", Self.bytes("1"))
            try await bucket.put("quote.demo.AAPL", Self.bytes("2"))
            try await bucket.put("quote.demo.MSFT", Self.bytes("3"))
            try await bucket.put("state.demo", Self.bytes("connected"))

            let watch = try bucket.watch("quote.demo.*")
            let events = StreamRecorder(watch.events)
            let snapshot = try await events.wait(for: "the snapshot") { $0.contains(.caughtUp) }
            let values = snapshot.compactMap { event -> String? in
                guard case .entry(let entry) = event else { return nil }
                return "\(entry.key)=\(String(decoding: entry.value, as: UTF8.self))"
            }
            #expect(values == ["quote.demo.AAPL=2", "quote.demo.MSFT=3"], "the latest of each key, in stream order, nothing else")
            #expect(snapshot.last == .caughtUp)

            try await bucket.put("quote.demo.AAPL", Self.bytes("4"))
            try await bucket.put("state.demo", Self.bytes("not watched"))
            try await bucket.delete("quote.demo.MSFT")
            let live = try await events.wait(for: "the change and the delete") { $0.count >= snapshot.count + 2 }
            guard case .entry(let changed) = live[snapshot.count], case .entry(let deleted) = live[snapshot.count + 1] else {
                Issue.record("expected two entries after the snapshot, got \(live)")
                return
            }
            #expect(Self.text(changed) == "4" && changed.operation == .put)
            #expect(deleted.key == "quote.demo.MSFT" && deleted.operation == .delete)
            #expect(changed.revision < deleted.revision)

            watch.stop()
            try await events.waitForEnd("the stopped watch to end")
            await connection.close()
        }
    }

    @Test func aWatchOfAnEmptyBucketIsCaughtUpAtOnce() async throws {
        try await NATSLiveServer.with { server, _ in
            let connection = try await NATSLiveServer.connect(server)
            let bucket = try await NATSKeyValue.create(bucket: "empty", connection: connection)
            let events = StreamRecorder(try bucket.watch().events)
            #expect(try await events.wait(for: "caught up") { !$0.isEmpty } == [.caughtUp])
            try await bucket.put("first", Self.bytes("1"))
            try await events.wait(for: "the first value") { $0.count == 2 && Self.isEntry($0[1], key: "first", value: "1") }
            await connection.close()
            try await events.waitForEnd("the watch to end with its connection")
        }
    }

    @Test func aWatchSurvivesAServerRestartWithoutGapsOrRepeats() async throws {
        try await TemporaryDirectory.withAsync { directory in
            var server = try await NATSServerProcess.start(in: directory.path("server"))
            let connection = try await NATSConnection.connect(NATSLiveServer.options([server.url]))
            let connectionEvents = StreamRecorder(connection.events())
            let bucket = try await NATSKeyValue.create(bucket: "durable", connection: connection)
            try await bucket.put("quote.x.A", Self.bytes("1"))
            let events = StreamRecorder(try bucket.watch().events)
            try await events.wait(for: "the snapshot") { $0.contains(.caughtUp) }

            await server.kill()
            server = try await server.restart()
            let url = server.url
            try await connectionEvents.wait(for: "the reconnect") { $0.contains(.reconnected(server: url)) }
            // The file store kept the bucket; the in-memory consumer is gone and the watch makes another.
            try await bucket.put("quote.x.A", Self.bytes("2"))
            try await bucket.put("quote.x.B", Self.bytes("3"))
            let all = try await events.wait(for: "the values after the restart") { events in
                events.contains { Self.isEntry($0, key: "quote.x.B", value: "3") }
            }
            let entries = all.compactMap { event -> NATSKeyValueEntry? in if case .entry(let entry) = event { entry } else { nil } }
            #expect(entries.map { Self.text($0) ?? "" } == ["1", "2", "3"], "no gap, no repeat")
            #expect(entries.map(\.revision) == entries.map(\.revision).sorted())
            #expect(all.filter { $0 == .caughtUp }.count == 1)
            await connection.close()
            await server.kill()
        }
    }

    @Test func withoutJetStreamTheBucketCallsSaySo() async throws {
        try await NATSLiveServer.with(jetStream: false) { server, _ in
            let connection = try await NATSLiveServer.connect(server)
            await #expect(throws: NATSError.jetStreamUnavailable(subject: "$JS.API.STREAM.CREATE.KV_quotes")) {
                try await NATSKeyValue.create(bucket: "quotes", connection: connection)
            }
            let bucket = try NATSKeyValue(bucket: "quotes", connection: connection)
            await #expect(throws: NATSError.jetStreamUnavailable(subject: "$KV.quotes.a")) { try await bucket.put("a", []) }
            await #expect(throws: NATSError.jetStreamUnavailable(subject: "$JS.API.DIRECT.GET.KV_quotes.$KV.quotes.a")) { try await bucket.get("a") }
            await connection.close()
        }
    }

    @Test func aWatchOfABucketNotYetMadeWaitsAndStartsOnceItExists() async throws {
        try await NATSLiveServer.with { server, _ in
            let connection = try await NATSLiveServer.connect(server)
            let events = StreamRecorder(try NATSKeyValue(bucket: "later", connection: connection).watch().events)
            let waiting = try await events.wait(for: "the watch to say it waits") { !$0.isEmpty }
            guard case .waiting(let reason) = waiting[0] else {
                Issue.record("expected .waiting, got \(waiting)")
                return
            }
            #expect(reason.contains("stream not found"))
            let bucket = try await NATSKeyValue.create(bucket: "later", connection: connection)
            try await bucket.put("k", Self.bytes("v"))
            let all = try await events.wait(for: "the value once the bucket exists") { events in events.contains { Self.isEntry($0, key: "k", value: "v") } }
            #expect(all.filter { if case .waiting = $0 { true } else { false } }.count == 1, "said once per run of failures")
            await connection.close()
        }
    }
}
