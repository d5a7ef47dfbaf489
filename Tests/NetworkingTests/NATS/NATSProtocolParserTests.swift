import Domain
import Foundation
@testable import Networking
import Testing

/// The NATS protocol as bytes: what nats-server 2.9.10 actually sent (captured from a session against
/// `nats-server -js`), what we send byte for byte, every split of a stream, and malformed input.
@Suite struct NATSProtocolParserTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func parseAll(_ bytes: [UInt8], peer: NATSProtocolParser.Peer = .server, maxPayload: Int = NATSProtocolParser.defaultMaxPayload) throws(NATSProtocolError) -> [NATSFrame] {
        var parser = NATSProtocolParser(peer: peer, maxPayload: maxPayload)
        parser.append(bytes)
        var frames: [NATSFrame] = []
        while let frame = try parser.nextFrame() { frames.append(frame) }
        #expect(parser.bufferedByteCount == 0, "a complete stream leaves nothing behind")
        return frames
    }

    static func error(_ bytes: [UInt8], peer: NATSProtocolParser.Peer = .server, maxPayload: Int = NATSProtocolParser.defaultMaxPayload) -> String? {
        var parser = NATSProtocolParser(peer: peer, maxPayload: maxPayload)
        parser.append(bytes)
        do {
            while try parser.nextFrame() != nil {}
            return nil
        } catch {
            return error.detail
        }
    }

    // MARK: - What the server sends

    static let capturedInfo = #"INFO {"server_id":"NBOMZXTZ3UKRNOPP3ADJWD34T5P7CUMZZPIE4SEVICUWPJDYE237T4NN","server_name":"NBOMZXTZ3UKRNOPP3ADJWD34T5P7CUMZZPIE4SEVICUWPJDYE237T4NN","version":"2.9.10","proto":1,"go":"go1.19.8","host":"127.0.0.1","port":37663,"headers":true,"max_payload":1048576,"jetstream":true,"client_id":4,"client_ip":"127.0.0.1"} "# + "\r\n"

    @Test func readsTheServersInfoWithItsTrailingSpace() throws {
        let frames = try Self.parseAll(Self.bytes(Self.capturedInfo))
        #expect(frames == [.info(NATSServerInfo(
            serverID: "NBOMZXTZ3UKRNOPP3ADJWD34T5P7CUMZZPIE4SEVICUWPJDYE237T4NN", serverName: "NBOMZXTZ3UKRNOPP3ADJWD34T5P7CUMZZPIE4SEVICUWPJDYE237T4NN",
            version: "2.9.10", proto: 1, host: "127.0.0.1", port: 37663, headers: true, maxPayload: 1_048_576, jetStream: true,
            clientID: 4, clientIP: "127.0.0.1"))])
        let cluster = try Self.parseAll(Self.bytes(#"INFO {"connect_urls":["127.0.0.1:4222","[::1]:4223"],"ldm":true,"tls_required":true}"# + "\r\n"))
        #expect(cluster == [.info(NATSServerInfo(tlsRequired: true, connectURLs: ["127.0.0.1:4222", "[::1]:4223"], lameDuckMode: true))])
    }

    @Test func readsMessagesAsTheServerWritesThemWithDoubleSpacesAndStatusHeaders() throws {
        let stream = """
        MSG _INBOX.x.2 1  26\r
        {"stream":"KV_b", "seq":1}\r
        HMSG _INBOX.x.5 1  34 34\r
        NATS/1.0 404 Message Not Found\r
        \r
        \r
        HMSG _INBOX.x.6 1 16 16\r
        NATS/1.0 503\r
        \r
        \r
        HMSG _INBOX.deliver 2  75 75\r
        NATS/1.0 100 Idle Heartbeat\r
        Nats-Last-Consumer: 1\r
        Nats-Last-Stream: 1\r
        \r
        \r
        HMSG $KV.b.k1 2 $JS.ACK.KV_b.cr0UbxY6.1.1.1.1795564318016031250.0 52 57\r
        NATS/1.0\r
        Nats-Expected-Last-Subject-Sequence: 0\r
        \r
        hello\r
        PING\r
        PONG\r
        +OK\r
        -ERR 'Authorization Violation'\r

        """
        let frames = try Self.parseAll(Self.bytes(stream))
        #expect(frames == [
            .message(NATSMessage(subject: "_INBOX.x.2", sid: "1", payload: Self.bytes(#"{"stream":"KV_b", "seq":1}"#))),
            .message(NATSMessage(subject: "_INBOX.x.5", sid: "1", headers: NATSHeaders(statusCode: 404, statusDescription: "Message Not Found"))),
            .message(NATSMessage(subject: "_INBOX.x.6", sid: "1", headers: NATSHeaders(statusCode: 503))),
            .message(NATSMessage(subject: "_INBOX.deliver", sid: "2", headers: NATSHeaders(
                [("Nats-Last-Consumer", "1"), ("Nats-Last-Stream", "1")], statusCode: 100, statusDescription: "Idle Heartbeat"))),
            .message(NATSMessage(
                subject: "$KV.b.k1", sid: "2", replyTo: "$JS.ACK.KV_b.cr0UbxY6.1.1.1.1795564318016031250.0",
                headers: NATSHeaders([("Nats-Expected-Last-Subject-Sequence", "0")]), payload: Self.bytes("hello"))),
            .ping, .pong, .ok, .error("Authorization Violation"),
        ])
        guard case .message(let noResponders) = frames[2] else { return }
        #expect(noResponders.isNoRespondersStatus)
    }

    @Test func operationNamesAreCaseInsensitiveInASCIIOnlyAndFieldsMaySeparateWithTabs() throws {
        #expect(try Self.parseAll(Self.bytes("ping\r\nPoNg\r\nmsg\ta\t\t7 2\r\nhi\r\n")) == [
            .ping, .pong, .message(NATSMessage(subject: "a", sid: "7", payload: Self.bytes("hi"))),
        ])
        #expect(Self.error(Self.bytes("p\u{131}ng\r\n")) == "unknown operation \"p??ng\" from the server", "a dotless i is not an I")
    }

    @Test func payloadsMayHoldCRLFAndAnyByte() throws {
        let payload: [UInt8] = [0x0D, 0x0A, 0x00, 0xFF, 0x0D, 0x0A, 0x50, 0x49, 0x4E, 0x47]
        #expect(try Self.parseAll(Self.bytes("MSG x 1 10\r\n") + payload + [0x0D, 0x0A]) == [.message(NATSMessage(subject: "x", sid: "1", payload: payload))])
    }

    // MARK: - What we send

    @Test func encodesWhatTheServerAcceptsByteForByte() {
        let headers = NATSHeaders([("Nats-Expected-Last-Subject-Sequence", "0")])
        #expect(NATSProtocolEncoder.encode(.publish(subject: "$KV.b.k1", replyTo: "_INBOX.x.2", headers: headers, payload: Self.bytes("hello")))
            == Self.bytes("HPUB $KV.b.k1 _INBOX.x.2 52 57\r\nNATS/1.0\r\nNats-Expected-Last-Subject-Sequence: 0\r\n\r\nhello\r\n"))
        #expect(NATSProtocolEncoder.encode(.publish(subject: "foo", replyTo: nil, headers: nil, payload: Self.bytes("hello"))) == Self.bytes("PUB foo 5\r\nhello\r\n"))
        #expect(NATSProtocolEncoder.encode(.publish(subject: "$JS.API.DIRECT.GET.KV_b.$KV.b.k1", replyTo: "_INBOX.x.4", headers: nil, payload: []))
            == Self.bytes("PUB $JS.API.DIRECT.GET.KV_b.$KV.b.k1 _INBOX.x.4 0\r\n\r\n"))
        #expect(NATSProtocolEncoder.encode(.subscribe(subject: "work", queueGroup: "workers", sid: "12")) == Self.bytes("SUB work workers 12\r\n"))
        #expect(NATSProtocolEncoder.encode(.subscribe(subject: "_INBOX.x.*", queueGroup: nil, sid: "0")) == Self.bytes("SUB _INBOX.x.* 0\r\n"))
        #expect(NATSProtocolEncoder.encode(.unsubscribe(sid: "12", maxMessages: 5)) == Self.bytes("UNSUB 12 5\r\n"))
        #expect(NATSProtocolEncoder.encode(.unsubscribe(sid: "12", maxMessages: nil)) == Self.bytes("UNSUB 12\r\n"))
        #expect(NATSProtocolEncoder.encode(.ping) + NATSProtocolEncoder.encode(.pong) == Self.bytes("PING\r\nPONG\r\n"))
        #expect(NATSProtocolEncoder.encode(.connect(NATSConnectOptions(user: "alice", password: "pw", name: "cb")))
            == Self.bytes(#"CONNECT {"echo":true,"headers":true,"lang":"swift","name":"cb","no_responders":true,"pass":"pw","pedantic":false,"protocol":1,"tls_required":false,"user":"alice","verbose":false,"version":"0.1.0"}"# + "\r\n"))
        #expect(NATSProtocolEncoder.encode(.message(NATSMessage(subject: "s", sid: "3", replyTo: "r", headers: NATSHeaders(statusCode: 503))))
            == Self.bytes("HMSG s 3 r 16 16\r\nNATS/1.0 503\r\n\r\n\r\n"))
        #expect(NATSProtocolEncoder.encode(.error("Unknown Protocol Operation")) == Self.bytes("-ERR 'Unknown Protocol Operation'\r\n"))
    }

    @Test func aClientsOperationsParseBackForTheServerSide() throws {
        let frames: [NATSFrame] = [
            .connect(NATSConnectOptions(tlsRequired: true, authToken: "t", name: "n", echo: false)),
            .publish(subject: "a.b", replyTo: "_INBOX.r.1", headers: NATSHeaders([("K", "v")], statusCode: 100, statusDescription: "FlowControl Request"), payload: [1, 2, 3]),
            .publish(subject: "a", replyTo: nil, headers: nil, payload: []),
            .subscribe(subject: "a.*.>", queueGroup: "q", sid: "9"),
            .unsubscribe(sid: "9", maxMessages: 1),
            .ping, .pong,
        ]
        let stream = frames.flatMap(NATSProtocolEncoder.encode)
        #expect(try Self.parseAll(stream, peer: .client) == frames)
        #expect(Self.error(Self.bytes("MSG a 1 0\r\n\r\n"), peer: .client) == "unknown operation \"MSG\" from a client")
        #expect(Self.error(Self.bytes("PUB a 0\r\n\r\n")) == "unknown operation \"PUB\" from the server")
    }

    // MARK: - Splits

    /// A stream of every kind of server frame with random subjects, headers and payloads.
    static func randomServerFrames(count: Int, using random: inout SplitMix64) -> [NATSFrame] {
        func token() -> String { String((0..<(1 + Int(random.next() % 8))).map { _ in "abcXYZ019_-$>*".randomElement(using: &random)! }) }
        func subject() -> String { (0..<(1 + Int(random.next() % 4))).map { _ in token() }.joined(separator: ".") }
        return (0..<count).map { _ in
            switch random.next() % 7 {
            case 0: return .ping
            case 1: return .pong
            case 2: return .info(NATSServerInfo(serverID: token(), maxPayload: Int(random.next() % 10_000), connectURLs: [token() + ":4222"]))
            case 3: return .error("Permissions Violation for Publish to \"\(subject())\"")
            default:
                let payload = (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                var headers: NATSHeaders?
                if random.next() % 2 == 0 {
                    headers = NATSHeaders((0..<Int(random.next() % 4)).map { _ in (token(), token() + " " + token()) })
                    if random.next() % 3 == 0 { headers?.statusCode = 100 + Int(random.next() % 900); headers?.statusDescription = token() }
                }
                return .message(NATSMessage(subject: subject(), sid: String(random.next() % 1000), replyTo: random.next() % 2 == 0 ? subject() : nil, headers: headers, payload: payload))
            }
        }
    }

    @Test(arguments: [1, 2, 3, 5, 8, 13])
    func everySplitGivesTheSameFrames(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let frames = Self.randomServerFrames(count: 200, using: &random)
        let stream = frames.flatMap(NATSProtocolEncoder.encode)
        var parser = NATSProtocolParser()
        var parsed: [NATSFrame] = []
        var offset = 0
        while offset < stream.count {
            // Mostly small pieces, sometimes single bytes, sometimes large runs.
            let length = min(stream.count - offset, random.next() % 4 == 0 ? 1 : 1 + Int(random.next() % 700))
            let before = parser.bufferedByteCount
            parser.append(stream[offset..<(offset + length)])
            #expect(parser.bufferedByteCount == before + length)
            offset += length
            while let frame = try parser.nextFrame() { parsed.append(frame) }
        }
        #expect(parsed == frames)
        #expect(parser.bufferedByteCount == 0)
    }

    @Test func byteByByteGivesTheSameFrames() throws {
        let stream = Self.bytes(Self.capturedInfo + "HMSG a.b 5 _INBOX.r 36 39\r\nNATS/1.0 100 FlowControl Request\r\n\r\nabc\r\nPING\r\n")
        var parser = NATSProtocolParser()
        var frames: [NATSFrame] = []
        for byte in stream {
            parser.append([byte])
            while let frame = try parser.nextFrame() { frames.append(frame) }
        }
        #expect(frames.count == 3)
        #expect(frames[1] == .message(NATSMessage(
            subject: "a.b", sid: "5", replyTo: "_INBOX.r", headers: NATSHeaders(statusCode: 100, statusDescription: "FlowControl Request"), payload: Self.bytes("abc"))))
    }

    // MARK: - Malformed input

    @Test func malformedInputIsAClearErrorThatStays() throws {
        let cases: [(String, String)] = [
            ("FOO bar\r\n", "unknown operation \"FOO\" from the server"),
            ("\r\n", "empty control line"),
            (" PING\r\n", "control line starts with a space: \" PING\""),
            ("PING\n", "control line \"PING\" ends with LF without CR"),
            ("PING extra\r\n", "PING takes no arguments, got \"extra\""),
            ("MSG a 1\r\n", "MSG with 2 fields, expected 3 or 4"),
            ("MSG a 1 b c 2\r\n", "MSG with 5 fields, expected 3 or 4"),
            ("MSG a 1 -2\r\n", "MSG size \"-2\" is not a number"),
            ("MSG a 1 +2\r\n", "MSG size \"+2\" is not a number"),
            ("MSG a 1 12345678901\r\n", "MSG size \"12345678901\" is not a number"),
            ("HMSG a 1 9 4\r\n", "HMSG header size 9 exceeds its total size 4"),
            ("MSG a 1 3\r\nabcd\r\n", "MSG payload of 3 bytes not followed by CRLF"),
            ("INFO {not json}\r\n", "INFO is not the expected JSON object: \"{not json}\""),
            ("INFO []\r\n", "INFO is not the expected JSON object: \"[]\""),
        ]
        for (input, expected) in cases {
            #expect(Self.error(Self.bytes(input)) == expected, "\(input.debugDescription)")
        }
        var parser = NATSProtocolParser()
        parser.append(Self.bytes("PING\r\nBAD\r\nPING\r\n"))
        #expect(try parser.nextFrame() == .ping)
        #expect(throws: NATSProtocolError("unknown operation \"BAD\" from the server")) { try parser.nextFrame() }
        #expect(throws: NATSProtocolError("unknown operation \"BAD\" from the server"), "the error stays") { try parser.nextFrame() }
    }

    @Test func limitsHoldBeforeTheBytesArriveWhateverTheSplit() throws {
        // A message over max_payload fails on its control line, before any of its payload is buffered.
        var parser = NATSProtocolParser(maxPayload: 1000)
        parser.append(Self.bytes("MSG a 1 1001\r\n"))
        #expect(throws: NATSProtocolError("MSG of 1001 bytes exceeds the 1000-byte max_payload")) { try parser.nextFrame() }
        #expect(Self.error(Self.bytes("MSG a 1 1000\r\n") + [UInt8](repeating: 7, count: 1000) + [13, 10], maxPayload: 1000) == nil)

        // A control line without its end fails once it cannot fit, the same as a complete one.
        let long = "MSG " + String(repeating: "x", count: 5000) + " 1 0\r\n\r\n"
        let whole = Self.error(Self.bytes(long))
        var pieces = NATSProtocolParser()
        var pieceError: String?
        for byte in Self.bytes(long) where pieceError == nil {
            pieces.append([byte])
            do { _ = try pieces.nextFrame() } catch { pieceError = error.detail }
        }
        #expect(whole == "control line \"MSG xxxxxxxxxxxx…\" longer than 4096 bytes")
        #expect(pieceError == whole)
        #expect(pieces.bufferedByteCount <= NATSProtocolParser.defaultMaxControlLineSize, "never buffers past the limit")
        // INFO, which lists a cluster's servers, may be longer.
        let bigInfo = #"INFO {"connect_urls":["# + (0..<400).map { "\"10.0.0.\($0 % 250):4222\"" }.joined(separator: ",") + "]}\r\n"
        #expect(bigInfo.utf8.count > 4096)
        #expect(Self.error(Self.bytes(bigInfo)) == nil)
    }

    @Test func unreadableHeadersDropOneMessageNotTheConnection() throws {
        let frames = try Self.parseAll(Self.bytes("HMSG bad 1 5 7\r\nhelloab\r\nMSG good 1 2\r\nok\r\n"))
        #expect(frames == [
            .malformedMessage(NATSMalformedMessage(
                subject: "bad", sid: "1", replyTo: nil, headerBytes: Self.bytes("hello"), payload: Self.bytes("ab"),
                reason: "header block does not end with a blank line")),
            .message(NATSMessage(subject: "good", sid: "1", payload: Self.bytes("ok"))),
        ])
        // Re-encoded, it is the bytes that came.
        #expect(NATSProtocolEncoder.encode(frames[0]) == Self.bytes("HMSG bad 1 5 7\r\nhelloab\r\n"))
        // A client's own unreadable headers break its stream, and the failing frame consumes nothing
        // (found by make fuzz: Fuzz/corpus/NATSProtocolParser/crash-client-unread-headers).
        var parser = NATSProtocolParser(peer: .client)
        parser.append(Self.bytes("HPUB a 5 7\r\nhelloab\r\n"))
        #expect(throws: NATSProtocolError("HPUB with unreadable headers: header block does not end with a blank line")) { try parser.nextFrame() }
        #expect(parser.bufferedByteCount == 21)
    }

    // MARK: - Mutations

    /// Random mutations of a real stream (a fixed seed), with the checks Fuzz/NATSProtocolParserFuzzer.swift
    /// applies for longer in `make fuzz`: no trap; whole and split parses agree, frames and error alike;
    /// every frame re-encodes to bytes that parse back to it; an error stays.
    @Test func survivesSeededMutations() throws {
        var random = SplitMix64(seed: 0x4E41_5453)
        let seed = Self.bytes(Self.capturedInfo) + NATSProtocolEncoder.encode(.message(NATSMessage(
            subject: "$KV.b.k1", sid: "2", replyTo: "$JS.ACK.KV_b.c.1.1.1.1.0", headers: NATSHeaders([("Nats-Last-Consumer", "1")], statusCode: 100), payload: Self.bytes("hi"))))
            + Self.bytes("MSG _INBOX.x.2 1  26\r\n{\"stream\":\"KV_b\", \"seq\":1}\r\nPING\r\n-ERR 'Slow Consumer'\r\n")
        let significant = Array(" \t\r\n0123456789:HMSG{}\"'".utf8) + [0x00, 0xC3, 0xFF]
        var outcomes = (frames: 0, errors: 0, malformed: 0)
        for _ in 0..<3_000 {
            var bytes = seed
            for _ in 0...(random.next() % 4) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[at] = significant[Int(random.next() % UInt64(significant.count))]
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(significant[Int(random.next() % UInt64(significant.count))], at: at)
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 1 + Int(random.next() % 30))], at: Int(random.next() % UInt64(bytes.count)))
                }
                if bytes.isEmpty { bytes = [0x50] }
            }
            let whole = Self.run(bytes, chunkSeed: nil)
            let split = Self.run(bytes, chunkSeed: random.next())
            #expect(whole.frames == split.frames && whole.error == split.error, "whole and split differ for \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            outcomes.frames += whole.frames.count
            outcomes.errors += whole.error == nil ? 0 : 1
            for frame in whole.frames {
                if case .malformedMessage = frame { outcomes.malformed += 1 }
                #expect(try Self.parseAll(NATSProtocolEncoder.encode(frame)) == [frame], "\(frame) does not survive encoding")
            }
        }
        #expect(outcomes.frames > 0 && outcomes.errors > 0 && outcomes.malformed > 0, "\(outcomes)")
    }

    static func run(_ bytes: [UInt8], chunkSeed: UInt64?) -> (frames: [NATSFrame], error: NATSProtocolError?) {
        var parser = NATSProtocolParser(maxPayload: 1 << 16)
        var random = SplitMix64(seed: chunkSeed ?? 0)
        var frames: [NATSFrame] = []
        var offset = 0
        while offset < bytes.count {
            let length = chunkSeed == nil ? bytes.count : min(bytes.count - offset, 1 + Int(random.next() % 40))
            parser.append(bytes[offset..<(offset + length)])
            offset += length
            do {
                while let frame = try parser.nextFrame() { frames.append(frame) }
            } catch {
                do {
                    _ = try parser.nextFrame()
                    Issue.record("the parser forgot its error \(error)")
                } catch let again {
                    #expect(again == error, "the error changed")
                }
                return (frames, error)
            }
        }
        return (frames, nil)
    }
}
