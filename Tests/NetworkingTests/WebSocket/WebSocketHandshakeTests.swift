import Foundation
@testable import Networking
import Testing

@Suite struct WebSocketHandshakeTests {
    /// RFC 6455 §1.3's example key.
    let keyBytes: [UInt8] = Array("the sample nonce".utf8)

    func handshake(_ url: String, headers: [String: String] = [:]) throws -> WebSocketHandshake {
        try WebSocketHandshake(url: URL(string: url)!, headers: headers, keyBytes: keyBytes)
    }

    func response(_ head: String) throws -> WebSocketHandshake.Response {
        try #require(try WebSocketHandshake.parseResponse(Array(head.utf8))).response
    }

    @Test func acceptValueMatchesTheRFC() throws {
        let handshake = try handshake("ws://example.com/chat")
        #expect(handshake.key == "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(handshake.expectedAccept == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func sha1MatchesRFC3174Vectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.digest(Array(repeating: UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func requestNamesHostPortPathQueryAndHeaders() throws {
        let text = try handshake("wss://ws.finnhub.io:8443/stream?token=secret", headers: ["X-Client": "cb", "Host": "evil"]).requestText
        #expect(text.hasPrefix("GET /stream?token=secret HTTP/1.1\r\nHost: ws.finnhub.io:8443\r\n"))
        #expect(text.contains("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"))
        #expect(text.contains("X-Client: cb\r\n"))
        #expect(!text.contains("evil"), "the handshake owns Host")
        #expect(text.hasSuffix("\r\n\r\n"))
        #expect(try handshake("ws://h").requestText.hasPrefix("GET / HTTP/1.1\r\nHost: h\r\n"))
        #expect(try handshake("wss://h:443/x").requestText.contains("Host: h\r\n"))
        #expect(try handshake("ws://[::1]:9000/").requestText.contains("Host: [::1]:9000\r\n"))
    }

    /// CR and LF can never reach the wire inside a header: "\r\n" is a single Character, so this is
    /// checked on Characters' `isNewline`, which covers it, lone CR, lone LF and U+2028.
    @Test(arguments: ["a\r\nInjected: yes", "a\rb", "a\nb", "a\u{2028}b"])
    func headersWithLineBreaksAreRefused(_ value: String) {
        #expect(throws: WebSocketError.self) { try handshake("ws://h/", headers: ["X-Evil": value]) }
        #expect(throws: WebSocketError.self) { try handshake("ws://h/", headers: [value: "v"]) }
    }

    @Test func refusesURLsThatAreNotWebSockets() {
        for url in ["http://h/", "ws:///nohost", "wss://h:0/"] {
            #expect(throws: WebSocketError.self, "\(url)") { try handshake(url) }
        }
    }

    @Test func acceptsAProperUpgradeAndKeepsTheFirstFrameBytes() throws {
        let head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: WebSocket\r\nConnection: keep-alive, Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
        #expect(try WebSocketHandshake.parseResponse(Array(head.utf8.prefix(30))) == nil)
        let parsed = try #require(try WebSocketHandshake.parseResponse(Array(head.utf8) + [0x81, 0x00]))
        #expect(parsed.rest == [0x81, 0x00])
        try handshake("ws://h/").validate(parsed.response)
    }

    @Test func refusalsSayWhy() throws {
        let handshake = try handshake("ws://h/")
        func failure(_ head: String, body: String = "") -> WebSocketError? {
            do {
                try handshake.validate(try response(head), body: Array(body.utf8), secretValues: ["s3cr3t"])
                return nil
            } catch let error as WebSocketError {
                return error
            } catch {
                return .network("\(error)")
            }
        }
        #expect(failure("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n") == .handshakeFailed(status: 401, reason: "Unauthorized"))
        #expect(failure("HTTP/1.1 403 Forbidden\r\n\r\n", body: "bad key s3cr3t\u{1B}[31m")
            == .handshakeFailed(status: 403, reason: "Forbidden: bad key <redacted> [31m"))
        #expect(failure("HTTP/1.1 101 OK\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
            == .protocolViolation("upgrade response lacks \"Upgrade: websocket\""))
        #expect(failure("HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: wrong\r\n\r\n")
            == .protocolViolation("Sec-WebSocket-Accept does not match the key sent"))
        #expect(failure("HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n")
            == .protocolViolation("server enabled an extension that was not offered (permessage-deflate)"))
        #expect(throws: WebSocketError.self) { try WebSocketHandshake.parseResponse(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)) }
        #expect(throws: WebSocketError.self, "a head that never ends") {
            try WebSocketHandshake.parseResponse(Array(repeating: UInt8(ascii: "a"), count: WebSocketHandshake.maxResponseHeadSize + 1))
        }
    }

    /// Found by Fuzz/WebSocketHandshakeFuzzer.swift: `Int` alone read "+01" as status 1 and "-12" as -12.
    @Test(arguments: ["+01", "-12", "1e2", "0x1", " 10"])
    func statusCodesAreThreeDigits(status: String) {
        #expect(throws: WebSocketError.self) { try WebSocketHandshake.parseResponse(Array("HTTP/1.1 \(status) OK\r\n\r\n".utf8)) }
    }

    /// Found by Fuzz/WebSocketHandshakeFuzzer.swift: a peer that echoes the request (a TCP echo, a misrouted
    /// proxy) put the URL's token into the error the footer shows. Server text in errors is redacted.
    @Test func serverTextInErrorsIsRedacted() throws {
        let echo = Array("GET /v2/iex?token=s3cr3t HTTP/1.1\r\nHost: stream.example.com\r\n\r\n".utf8)
        #expect(throws: WebSocketError.protocolViolation(#"not an HTTP/1.1 status line: "GET /v2/iex?token=<redacted> HTTP/1.1""#)) {
            try WebSocketHandshake.parseResponse(echo, secretNames: ["token"], secretValues: ["s3cr3t"])
        }
        let extensionEcho = "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Extensions: x; key=s3cr3t\r\n\r\n"
        #expect(throws: WebSocketError.protocolViolation("server enabled an extension that was not offered (x; key=<redacted>)")) {
            try handshake("ws://h/").validate(try response(extensionEcho), secretValues: ["s3cr3t"])
        }
    }
}
