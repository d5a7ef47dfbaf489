import Foundation
@testable import Networking
import Testing

/// The client against a real nats-server (started per test on a port of its own): what the bus needs
/// from it, end to end. Every wait is for an event, bounded only to fail the test.
@Suite struct NATSConnectionTests {
    @Test func publishedMessagesReachAWildcardSubscriberInOrder() async throws {
        try await NATSLiveServer.with { server, _ in
            let subscriber = try await NATSLiveServer.connect(server)
            let publisher = try await NATSLiveServer.connect(server)
            let subscription = try subscriber.subscribe(to: "quote.demo.>")
            let received = StreamRecorder(subscription.messages)
            try await subscriber.flush()

            for (index, symbol) in ["AAPL", "MSFT", "BRK=2EB"].enumerated() {
                try publisher.publish("quote.demo.\(symbol)", payload: Array("\(index)".utf8))
            }
            try publisher.publish("quote.other.AAPL", payload: Array("not for us".utf8))
            try await publisher.flush()

            let messages = try await received.wait(for: "three quotes") { $0.count >= 3 }
            #expect(messages.map(\.subject) == ["quote.demo.AAPL", "quote.demo.MSFT", "quote.demo.BRK=2EB"])
            #expect(messages.map(NATSLiveServer.text) == ["0", "1", "2"])
            #expect(messages.allSatisfy { $0.headers == nil && $0.replyTo == nil && $0.sid == subscription.sid })
            #expect(subscriber.status == .connected)
            await publisher.close()
            await subscriber.close()
            #expect(subscriber.status == .closed)
        }
    }

    @Test func headersArriveAsPublishedWithRepeatedNamesAndCase() async throws {
        try await NATSLiveServer.with { server, _ in
            let connection = try await NATSLiveServer.connect(server)
            let received = StreamRecorder(try connection.subscribe(to: "with.headers").messages)
            var headers = NATSHeaders([("Content-Type", "application/json"), ("X-Trace", "a"), ("X-Trace", "b")])
            headers.append("lower-case", "kept as written")
            try connection.publish("with.headers", payload: Array("{}".utf8), headers: headers)
            try connection.publish("with.headers", payload: [], headers: NATSHeaders())

            let messages = try await received.wait(for: "two messages") { $0.count >= 2 }
            #expect(messages[0].headers == headers)
            #expect(messages[0].headers?.values(named: "X-Trace") == ["a", "b"])
            #expect(messages[0].headers?["lower-case"] == "kept as written")
            #expect(messages[0].headers?["Lower-Case"] == nil, "names are case-sensitive")
            #expect(NATSLiveServer.text(messages[0]) == "{}")
            #expect(messages[1].headers == NATSHeaders(), "an empty header block is still HMSG")
            #expect(messages[1].payload.isEmpty)
            await connection.close()
        }
    }

    @Test func requestGetsTheRepliesOfAResponder() async throws {
        try await NATSLiveServer.with { server, _ in
            let responder = try await NATSLiveServer.connect(server)
            try responder.subscribe(to: "service.echo") { message in
                guard let replyTo = message.replyTo else { return }
                var headers = NATSHeaders([("Echoed", "yes")])
                if let trace = message.headers?["Trace"] { headers.append("Trace", trace) }
                try? responder.publish(replyTo, payload: Array("echo: ".utf8) + message.payload, headers: headers)
            }
            try await responder.flush()

            let requester = try await NATSLiveServer.connect(server)
            let replies = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let reply = try await requester.request("service.echo", payload: Array("\(index)".utf8), headers: NATSHeaders([("Trace", "t\(index)")]))
                        #expect(reply.headers?["Trace"] == "t\(index)", "each reply goes to its own request")
                        return NATSLiveServer.text(reply)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(replies) == Set((0..<20).map { "echo: \($0)" }))
            await requester.close()
            await responder.close()
        }
    }

    @Test func aRequestNobodyServesFailsAtOnceAndASilentOneTimesOut() async throws {
        try await NATSLiveServer.with { server, _ in
            let connection = try await NATSLiveServer.connect(server)
            await #expect(throws: NATSError.noResponders(subject: "nobody.home")) {
                try await connection.request("nobody.home")
            }
            let silent = try connection.subscribe(to: "silent.service")
            try await connection.flush()
            // The bound is the behaviour under test (a reply that never comes), not a wait for something.
            let error = await #expect(throws: NATSError.self) {
                try await connection.request("silent.service", timeout: .milliseconds(200))
            }
            guard case .timedOut(let detail) = error else {
                Issue.record("expected a timeout, got \(String(describing: error))")
                return
            }
            #expect(detail.contains("silent.service"))
            silent.unsubscribe()
            await connection.close()
            await #expect(throws: NATSError.connectionClosed) { try await connection.request("anything") }
            #expect(throws: NATSError.connectionClosed) { try connection.publish("anything") }
        }
    }

    @Test func aQueueGroupSharesMessagesWithoutDuplicates() async throws {
        try await NATSLiveServer.with { server, _ in
            let connection = try await NATSLiveServer.connect(server)
            let first = try connection.subscribe(to: "work", queueGroup: "workers")
            let second = try connection.subscribe(to: "work", queueGroup: "workers")
            let (firstMessages, secondMessages) = (StreamRecorder(first.messages), StreamRecorder(second.messages))
            try await connection.flush()
            for index in 0..<50 { try connection.publish("work", payload: Array(String(index).utf8)) }
            // The PONG comes after every delivery of the publications before the PING; then the streams end.
            try await connection.flush()
            first.unsubscribe()
            second.unsubscribe()
            let all = try await firstMessages.waitForEnd() + secondMessages.waitForEnd()
            #expect(all.count == 50)
            #expect(Set(all.map(NATSLiveServer.text)) == Set((0..<50).map(String.init)))
            await connection.close()
        }
    }

    @Test func unsubscribingEndsTheStreamAndClosingEndsEveryStream() async throws {
        try await NATSLiveServer.with { server, _ in
            let connection = try await NATSLiveServer.connect(server)
            let dropped = try connection.subscribe(to: "a")
            let droppedMessages = StreamRecorder(dropped.messages)
            let keptMessages = StreamRecorder(try connection.subscribe(to: "a").messages)
            dropped.unsubscribe()
            try connection.publish("a", payload: [1])
            try await keptMessages.wait(for: "the message") { $0.count == 1 }
            #expect(try await droppedMessages.waitForEnd().isEmpty, "unsubscribed before the publication, in the same order")

            let events = StreamRecorder(connection.events())
            await connection.close()
            #expect(try await keptMessages.waitForEnd().count == 1)
            #expect(try await events.waitForEnd().last == .closed(reason: nil))
            await connection.close()
            #expect(connection.status == .closed)
        }
    }

    @Test func whatCannotBeSentIsRefusedBeforeItIsQueued() async throws {
        try await NATSLiveServer.with(jetStream: false) { server, _ in
            let connection = try await NATSLiveServer.connect(server)
            #expect(connection.serverInfo?.maxPayload == 1 << 20)
            #expect(throws: NATSError.payloadTooLarge(size: (1 << 20) + 1, limit: 1 << 20)) {
                try connection.publish("big", payload: [UInt8](repeating: 0, count: (1 << 20) + 1))
            }
            #expect(throws: NATSError.invalidSubject("quote.*", reason: "holds a wildcard ('*' or '>'), which only subscriptions may use")) {
                try connection.publish("quote.*")
            }
            #expect(throws: NATSError.invalidSubject("a b", reason: "holds whitespace or a control character")) { try connection.subscribe(to: "a b") }
            #expect(throws: NATSError.invalidHeaders("the value of header X holds a line break")) {
                try connection.publish("ok", headers: NATSHeaders([("X", "a\r\nPUB injected 0")]))
            }
            // Still connected: nothing bad reached the server.
            try await connection.flush()
            #expect(connection.status == .connected)
            await connection.close()
        }
    }
}
