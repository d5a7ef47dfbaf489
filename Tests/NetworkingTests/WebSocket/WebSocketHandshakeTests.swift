import Foundation
@testable import Networking
import Testing

@Suite struct WebSocketHandshakeTests {
    /// RFC 6455 §1.3's example key.
    let keyBytes: [UInt8] = Array("the sample nonce".utf8)

    @Test func acceptValueMatchesTheRFC() {
        let handshake = WebSocketHandshake(url: URL(string: "ws://example.com/chat")!, keyBytes: keyBytes)
        #expect(handshake.key == "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(WebSocketHandshake.acceptValue(for: handshake.key) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func sha1MatchesRFC3174Vectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.digest(Array(repeating: UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func requestNamesHostPortPathQueryAndHeaders() {
        let handshake = WebSocketHandshake(
            url: URL(string: "wss://ws.finnhub.io:8443/stream?token=secret")!, keyBytes: keyBytes,
            headers: ["X-Evil": "a\r\nInjected: yes"]
        )
        let text = String(decoding: handshake.request, as: UTF8.self)
        #expect(text.hasPrefix("GET /stream?token=secret HTTP/1.1\r\nHost: ws.finnhub.io:8443\r\n"))
        #expect(text.contains("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"))
        #expect(text.contains("X-Evil: aInjected: yes\r\n"), "CR/LF stripped from header values")
        #expect(text.hasSuffix("\r\n\r\n"))
        let plain = String(decoding: WebSocketHandshake(url: URL(string: "ws://h")!, keyBytes: keyBytes).request, as: UTF8.self)
        #expect(plain.hasPrefix("GET / HTTP/1.1\r\nHost: h\r\n"))
        let defaultPort = String(decoding: WebSocketHandshake(url: URL(string: "wss://h:443/x")!, keyBytes: keyBytes).request, as: UTF8.self)
        #expect(defaultPort.contains("Host: h\r\n"))
    }

    @Test func acceptsAProperUpgradeAndKeepsTheFirstFrameBytes() throws {
        let handshake = WebSocketHandshake(url: URL(string: "ws://h/")!, keyBytes: keyBytes)
        let head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: WebSocket\r\nConnection: keep-alive, Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
        #expect(try handshake.validate(response: Array(head.utf8.prefix(30))) == .incomplete)
        #expect(try handshake.validate(response: Array(head.utf8) + [0x81, 0x00]) == .upgraded(leftover: [0x81, 0x00]))
    }

    @Test func refusalsSayWhy() {
        let handshake = WebSocketHandshake(url: URL(string: "ws://h/")!, keyBytes: keyBytes)
        func failure(_ head: String) -> WebSocketError? {
            do {
                _ = try handshake.validate(response: Array(head.utf8))
                return nil
            } catch {
                return error
            }
        }
        #expect(failure("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n") == .handshakeFailed(status: 401, reason: "Unauthorized"))
        #expect(failure("HTTP/1.1 101 OK\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
            == .handshakeFailed(status: 101, reason: "missing Upgrade: websocket"))
        #expect(failure("HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: wrong\r\n\r\n")
            == .handshakeFailed(status: 101, reason: "Sec-WebSocket-Accept does not match the key"))
        #expect(failure("SSH-2.0-OpenSSH\r\n\r\n") == .handshakeFailed(status: 0, reason: "not an HTTP response: SSH-2.0-OpenSSH"))
        #expect(failure("HTTP/1.1 403 \u{1B}[31mno\r\n\r\n") == .handshakeFailed(status: 403, reason: "?[31mno"))
    }
}
