import Domain
import Foundation
import TestSupport
@testable import Networking
import Testing

/// Random mutations of real upgrade answers (a fixed seed, so every run checks the same inputs), with the
/// checks Fuzz/WebSocketHandshakeFuzzer.swift applies for longer under libFuzzer in `make fuzz`.
@Suite struct WebSocketHandshakeMutationTests {
    static let secret = "s3cr3t"
    static let accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    static let seeds = [
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n\u{81}\u{00}",
        "HTTP/1.1 101 Switching Protocols\r\nupgrade: WebSocket\r\nconnection: keep-alive, Upgrade\r\nsec-websocket-accept: \(accept)\r\nServer: nginx\r\n\r\n",
        "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n",
        "HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: 22\r\n\r\ninvalid token \(secret)\r\n",
        "HTTP/1.1 403 Forbidden\r\nContent-Length: 13\r\n\r\n\u{1B}[31mforbidden",
        "GET /v2/iex?token=\(secret) HTTP/1.1\r\nHost: stream.example.com\r\n\r\n",
    ]

    struct Outcomes {
        var incomplete = 0
        var notHTTP = 0
        var upgraded = 0
        var refused = 0
        var violations = 0
    }

    @Test func survivesSeededMutations() async throws {
        let handshake = try WebSocketHandshake(url: URL(string: "wss://h/v2/iex?token=\(Self.secret)")!, keyBytes: Array("the sample nonce".utf8))
        let significant = Array(" :\r\n0123456789HTTP/1.\u{7F}".utf8) + [0x00, 0x1B, 0xC3, 0xE2, 0xFF]
        var random = SplitMix64(seed: 0x0465_5101)
        var outcomes = Outcomes()
        var slice = TimeSlice()
        for _ in 0..<4_000 {
            await slice.yieldIfDue()
            var bytes = Array(Self.seeds[Int(random.next() % UInt64(Self.seeds.count))].utf8)
            for _ in 0...(random.next() % 4) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 5 {
                case 0: bytes[at] = significant[Int(random.next() % UInt64(significant.count))]
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(significant[Int(random.next() % UInt64(significant.count))], at: at)
                case 3:
                    let end = min(bytes.count, at + 1 + Int(random.next() % 24))
                    bytes.insert(contentsOf: bytes[at..<end], at: Int(random.next() % UInt64(bytes.count)))
                default: bytes.removeSubrange(at...)
                }
                if bytes.isEmpty { bytes = [0x48] }
            }
            check(bytes, handshake: handshake, outcomes: &outcomes)
        }
        #expect(outcomes.incomplete > 0 && outcomes.notHTTP > 0 && outcomes.upgraded > 0 && outcomes.refused > 0 && outcomes.violations > 0, "\(outcomes)")
    }

    func check(_ bytes: [UInt8], handshake: WebSocketHandshake, outcomes: inout Outcomes) {
        let text = String(decoding: bytes, as: UTF8.self).debugDescription
        let parsed: (response: WebSocketHandshake.Response, rest: [UInt8])?
        do {
            parsed = try WebSocketHandshake.parseResponse(bytes, secretNames: ["token"], secretValues: [Self.secret])
        } catch {
            outcomes.notHTTP += 1
            expectShowable(error, text)
            return
        }
        let blankLine = (0..<max(0, bytes.count - 3)).first { bytes[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10]) }
        guard let (response, rest) = parsed else {
            outcomes.incomplete += 1
            #expect(blankLine == nil, "nil for a complete head: \(text)")
            return
        }
        #expect(blankLine.map { Array(bytes[($0 + 4)...]) } == rest, "rest is not what follows the blank line: \(text)")
        let statusDigits = bytes.drop(while: { $0 != UInt8(ascii: " ") }).dropFirst().prefix(3)
        #expect(
            statusDigits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                && response.status == Int(String(decoding: statusDigits, as: UTF8.self)),
            "status \(response.status): \(text)")
        #expect(response.headers.keys.allSatisfy { $0 == $0.lowercased() }, "header names not lower case: \(text)")
        do {
            try handshake.validate(response, body: rest, secretNames: ["token"], secretValues: [Self.secret])
            outcomes.upgraded += 1
            #expect(response.status == 101 && response.header("sec-websocket-accept") == Self.accept, "validated: \(text)")
        } catch {
            expectShowable(error, text)
            if case .handshakeFailed(let status, let reason) = error {
                outcomes.refused += 1
                #expect(status == response.status && status != 101 && reason.count <= 120, "\(error): \(text)")
            } else {
                outcomes.violations += 1
                #expect(response.status == 101, "\(error) for status \(response.status): \(text)")
            }
        }
    }

    /// What reaches the footer: printable ASCII (or the ellipsis of a shortened reason), never the secret.
    func expectShowable(_ error: WebSocketError, _ text: String) {
        let message = error.description
        #expect(message.unicodeScalars.allSatisfy { (0x20..<0x7F).contains($0.value) || $0 == "…" }, "\(message.debugDescription) from \(text)")
        #expect(!message.contains(Self.secret), "\(message.debugDescription) from \(text)")
    }
}
