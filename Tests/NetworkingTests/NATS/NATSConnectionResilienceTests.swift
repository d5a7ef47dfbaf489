import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif
@testable import Networking
import Testing

/// What goes wrong in real life, against real servers: refused credentials, a server killed
/// mid-stream and started again, a cluster node dying, a consumer that does not keep up, a publisher
/// writing garbage headers, TLS. Every wait is for an event, bounded only to fail the test.
@Suite struct NATSConnectionResilienceTests {
    @Test func userAndPasswordGetInAndAWrongPasswordIsRefusedWithoutBeingShown() async throws {
        try await NATSLiveServer.with(jetStream: false, arguments: ["--user", "alice", "--pass", "correct-horse"]) { server, _ in
            let connection = try await NATSConnection.connect(NATSLiveServer.options([server.url], credentials: .userPassword(user: "alice", password: "correct-horse")))
            try await connection.flush()
            await connection.close()

            for credentials in [NATSCredentials.userPassword(user: "alice", password: "battery-staple"), .none] {
                let error = await #expect(throws: NATSError.self) {
                    try await NATSConnection.connect(NATSLiveServer.options([server.url], credentials: credentials))
                }
                #expect(error == .authorizationViolation(server: server.url))
                #expect(error?.isPermanent == true)
                #expect(!String(describing: error).contains("battery-staple"))
            }

            // Credentials in the URL work the same, and never show in what the connection reports.
            let viaURL = try await NATSConnection.connect(NATSLiveServer.options(["nats://alice:correct-horse@127.0.0.1:\(server.port)"]))
            #expect(viaURL.knownServers.map(\.description) == [server.url])
            #expect(viaURL.connectedServer?.description == server.url)
            await viaURL.close()
            let refused = await #expect(throws: NATSError.self) {
                try await NATSConnection.connect(NATSLiveServer.options(["nats://alice:battery-staple@127.0.0.1:\(server.port)"]))
            }
            #expect(!String(describing: refused).contains("battery-staple"))
        }
    }

    @Test func aTokenGetsInAndAWrongOneIsRefused() async throws {
        try await NATSLiveServer.with(jetStream: false, arguments: ["--auth", "s3cr3t-token"]) { server, _ in
            let connection = try await NATSConnection.connect(NATSLiveServer.options(["nats://s3cr3t-token@127.0.0.1:\(server.port)"]))
            try await connection.flush()
            await connection.close()
            let error = await #expect(throws: NATSError.self) {
                try await NATSConnection.connect(NATSLiveServer.options([server.url], credentials: .token("not-the-token")))
            }
            #expect(error == .authorizationViolation(server: server.url))
            #expect(!String(describing: error).contains("not-the-token"))
            #expect(!String(describing: NATSCredentials.token("s3cr3t-token")).contains("s3cr3t"))
            #expect(!String(describing: NATSConnectOptions(password: "pw-1", authToken: "tk-2")).contains("pw-1"))
            #expect(!String(describing: NATSConnectOptions(password: "pw-1", authToken: "tk-2")).contains("tk-2"))
        }
    }

    @Test func noServerAnsweringIsAnErrorNamingWhatFailed() async throws {
        // A socket bound and not listening: connections to its port are refused for as long as it is held.
        let held = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(held) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(held, $0, length) == 0 && getsockname(held, $0, &length) == 0 }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))

        let error = await #expect(throws: NATSError.self) {
            try await NATSConnection.connect(NATSLiveServer.options(["nats://127.0.0.1:\(port)", "tls://127.0.0.1:\(port)"]))
        }
        guard case .network(let detail) = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("127.0.0.1:\(port)"))
        await #expect(throws: NATSError.invalidConfiguration("server URL #2 is not nats://host[:port] or tls://host[:port]")) {
            try await NATSConnection.connect(NATSLiveServer.options(["nats://127.0.0.1:\(port)", "http://user:secret@example.com"]))
        }
    }

    @Test func aServerKilledMidStreamIsReconnectedAndTheSubscriptionsResumed() async throws {
        try await TemporaryDirectory.withAsync { directory in
            var server = try await NATSServerProcess.start(in: directory.path("server"))
            let connection = try await NATSConnection.connect(NATSLiveServer.options([server.url]))
            let events = StreamRecorder(connection.events())
            let subscription = try connection.subscribe(to: "stream.>")
            let received = StreamRecorder(subscription.messages)
            try connection.publish("stream.before", payload: [1])
            try await received.wait(for: "the first message") { $0.count == 1 }

            await server.kill()
            try await events.wait(for: "the loss") { $0.contains { if case .disconnected = $0 { true } else { false } } }
            #expect(connection.status == .reconnecting)
            #expect(connection.connectedServer == nil)
            // Queued meanwhile, and sent after the subscriptions once connected again.
            try connection.publish("stream.while-away", payload: [2])
            let flushedLater = Task { try await connection.flush(timeout: .seconds(30)) }

            server = try await server.restart()
            let url = server.url
            try await events.wait(for: "the reconnect") { $0.contains(.reconnected(server: url)) }
            try connection.publish("stream.after", payload: [3])
            let messages = try await received.wait(for: "three messages") { $0.count >= 3 }
            #expect(messages.map(\.subject) == ["stream.before", "stream.while-away", "stream.after"])
            try await flushedLater.value
            #expect(subscription.droppedCount == 0)

            // Another client sees the resubscription on the server.
            let other = try await NATSConnection.connect(NATSLiveServer.options([server.url]))
            try other.publish("stream.from-another-client", payload: [4])
            try await received.wait(for: "the other client's message") { $0.count >= 4 }
            await other.close()
            await connection.close()
            await server.kill()
        }
    }

    @Test func followsTheClustersConnectURLsAndFailsOverWhenItsServerDies() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let cluster = ["--cluster", "nats://127.0.0.1:-1", "--cluster_name", "networking-tests"]
            let first = try await NATSServerProcess.start(in: directory.path("a"), jetStream: false, arguments: cluster)
            let second = try await NATSServerProcess.start(in: directory.path("b"), jetStream: false, arguments: cluster + ["--routes", first.clusterURL ?? "?"])
            // Told only about the first server.
            let connection = try await NATSConnection.connect(NATSLiveServer.options([first.url]))
            let events = StreamRecorder(connection.events())
            if !connection.knownServers.contains(where: { $0.port == second.port }) {
                try await events.wait(for: "the cluster to announce the second server") { events in
                    events.contains { if case .discoveredServers(let servers) = $0 { servers.contains(second.url) } else { false } }
                }
            }
            let received = StreamRecorder(try connection.subscribe(to: "failover").messages)
            try await connection.flush()

            await first.kill()
            try await events.wait(for: "the move to the second server") { $0.contains(.reconnected(server: second.url)) }
            #expect(connection.connectedServer?.port == second.port)
            try connection.publish("failover", payload: Array("still here".utf8))
            let messages = try await received.wait(for: "a message through the second server") { !$0.isEmpty }
            #expect(NATSLiveServer.text(messages[0]) == "still here")
            await connection.close()
            await second.kill()
        }
    }

    @Test func aSlowConsumerDropsItsOldestMessagesWithACountWhileOthersGetEverything() async throws {
        try await NATSLiveServer.with(jetStream: false) { server, _ in
            let connection = try await NATSLiveServer.connect(server)
            let events = StreamRecorder(connection.events())
            let slow = try connection.subscribe(to: "flood", bufferLimit: 10)
            let fast = StreamRecorder(try connection.subscribe(to: "flood").messages)
            for index in 0..<100 { try connection.publish("flood", payload: Array(String(index).utf8)) }
            // Our own publications come back before the PONG: after the flush every delivery was made.
            try await connection.flush()
            #expect(slow.droppedCount == 90)
            #expect(try await fast.wait(for: "all 100") { $0.count == 100 }.map(NATSLiveServer.text) == (0..<100).map(String.init))

            slow.unsubscribe()
            let kept = try await StreamRecorder(slow.messages).waitForEnd()
            #expect(kept.map(NATSLiveServer.text) == (90..<100).map(String.init), "the newest stay")
            await connection.close()
            let slowEvents = try await events.waitForEnd().filter { if case .slowConsumer = $0 { true } else { false } }
            #expect(slowEvents == [.slowConsumer(subject: "flood", dropped: 1)], "one event per episode")
        }
    }

    @Test func aMessageWithUnreadableHeadersIsDroppedAndTheConnectionGoesOn() async throws {
        try await NATSLiveServer.with(jetStream: false) { server, _ in
            let connection = try await NATSLiveServer.connect(server)
            let events = StreamRecorder(connection.events())
            let subscription = try connection.subscribe(to: "garbled")
            let received = StreamRecorder(subscription.messages)
            try await connection.flush()
            // The server forwards headers as written: "hello" is no header block.
            try await RawNATSClient.send(Array("HPUB garbled 5 7\r\nhelloab\r\nPUB garbled 2\r\nok\r\n".utf8), toPort: server.port)

            let messages = try await received.wait(for: "the good message") { !$0.isEmpty }
            #expect(NATSLiveServer.text(messages[0]) == "ok")
            #expect(subscription.droppedCount == 1)
            try await events.wait(for: "the drop event") { events in
                events.contains { if case .malformedMessageDropped(let subject, _) = $0 { subject == "garbled" } else { false } }
            }
            #expect(connection.status == .connected)
            await connection.close()
        }
    }

    @Test func tlsIsVerifiedAgainstTheConfiguredCA() async throws {
        let authority = try await ThrowawayCertificateAuthority.shared()
        // In a config file for its `timeout`: nats-server hangs up on a client that has not finished the
        // TLS handshake within 2 s (its default), and under TSan on a busy machine this client took
        // longer, so the rejected certificate showed as "connection lost during the TLS handshake".
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("nats-tls-\(UUID().uuidString).conf")
        let tlsBlock = #"tls { cert_file: "\#(authority.loopbackServer.certificateFile)", key_file: "\#(authority.loopbackServer.keyFile)", timeout: \#(2 * TestTime.scale) }"#
        try Data(tlsBlock.utf8).write(to: config)
        defer { try? FileManager.default.removeItem(at: config) }
        try await NATSLiveServer.with(jetStream: false, arguments: ["-c", config.path]) { server, _ in
            var options = NATSLiveServer.options(["tls://127.0.0.1:\(server.port)"])
            options.extraCAFile = authority.certificateFile
            let connection = try await NATSConnection.connect(options)
            let received = StreamRecorder(try connection.subscribe(to: "secure").messages)
            try connection.publish("secure", payload: Array("over TLS".utf8))
            #expect(try await received.wait(for: "the message") { !$0.isEmpty }.map(NATSLiveServer.text) == ["over TLS"])
            await connection.close()

            // nats:// to a server that requires TLS upgrades as the server says.
            options.servers = [server.url]
            let upgraded = try await NATSConnection.connect(options)
            try await upgraded.flush()
            await upgraded.close()

            options.extraCAFile = nil
            let error = await #expect(throws: NATSError.self) { try await NATSConnection.connect(options) }
            guard case .certificateRejected(.untrustedIssuer) = error else {
                Issue.record("expected an untrusted issuer, got \(String(describing: error))")
                return
            }
        }
    }

    @Test func whileAwayPublicationsAreBufferedUpToTheLimitThenRefused() async throws {
        try await TemporaryDirectory.withAsync { directory in
            var server = try await NATSServerProcess.start(in: directory.path("server"), jetStream: false)
            var options = NATSLiveServer.options([server.url])
            options.pendingBytesLimit = 1000
            let connection = try await NATSConnection.connect(options)
            let events = StreamRecorder(connection.events())
            let received = StreamRecorder(try connection.subscribe(to: "buffered").messages)
            try await connection.flush()
            await server.kill()
            try await events.wait(for: "the loss") { $0.contains { if case .disconnected = $0 { true } else { false } } }

            // Each publication is "PUB buffered 200\r\n" and 200 bytes and CRLF: 220 bytes; four fit in 1000.
            let payload = [UInt8](repeating: 0x61, count: 200)
            for _ in 0..<4 { try connection.publish("buffered", payload: payload) }
            #expect(throws: NATSError.outboundBufferFull(limit: 1000)) { try connection.publish("buffered", payload: payload) }

            server = try await server.restart()
            #expect(try await received.wait(for: "the buffered four") { $0.count == 4 }.count == 4)
            try await connection.flush()
            try connection.publish("buffered", payload: payload)
            #expect(try await received.wait(for: "one more once written") { $0.count == 5 }.count == 5)
            await connection.close()
            await server.kill()
        }
    }
}
