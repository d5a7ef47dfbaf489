import Foundation
@testable import Networking
import Testing

/// The upgrade answer's status line must be exactly `HTTP/1.1 SP 3DIGIT SP reason` (RFC 9112 §4).
@Suite struct WebSocketStatusLineTests {
    /// Found by `make fuzz` (Fuzz/corpus/WebSocketHandshake/crash-combining-space): a space followed by a
    /// combining mark is one `Character`, so splitting the decoded line on " " skipped it and read the later
    /// "101" as the status of a line that does not start with "HTTP/1.1 ".
    @Test func aSpaceJoinedToACombiningMarkIsNotASeparator() throws {
        let bytes = try Array(Data(contentsOf: FuzzCorpus.file("WebSocketHandshake/crash-combining-space")))
        #expect(throws: WebSocketError.self) { try WebSocketHandshake.parseResponse(bytes) }
    }

    @Test(arguments: [
        "HTTP/1.1o/v2/i 101 Switching Protocols", "HTTP/1.10 101 Switching Protocols", "HTTP/2 101 Switching Protocols",
        "HTTP/1.1  101 Switching Protocols", "HTTP/1.1 101x Switching Protocols", "http/1.1 101 Switching Protocols",
        " HTTP/1.1 101 Switching Protocols", "HTTP/1.1\t101 Switching Protocols", "HTTP/1.1 1011 Switching Protocols",
        "HTTP/1.1 101 Switching\rProtocols", "HTTP/1.0 101 Switching Protocols",
    ])
    func malformedStatusLinesAreRefused(line: String) {
        #expect(throws: WebSocketError.self) { try WebSocketHandshake.parseResponse(Array("\(line)\r\n\r\n".utf8)) }
    }

    @Test func theErrorNamesTheLineEscaped() {
        let bytes = Array("HTTP/1.1o \u{1B}[31m 101 OK\r\n\r\n".utf8)
        #expect(throws: WebSocketError.protocolViolation(#"not an HTTP/1.1 status line: "HTTP/1.1o [31m 101 OK""#)) {
            try WebSocketHandshake.parseResponse(bytes)
        }
    }

    @Test func wellFormedLinesParse() throws {
        let full = try #require(try WebSocketHandshake.parseResponse(Array("HTTP/1.1 101 Switching Protocols\r\n\r\n".utf8)))
        #expect(full.response.status == 101)
        #expect(full.response.reasonPhrase == "Switching Protocols")
        let emptyReason = try #require(try WebSocketHandshake.parseResponse(Array("HTTP/1.1 403 \r\n\r\n".utf8)))
        #expect(emptyReason.response.status == 403)
        #expect(emptyReason.response.reasonPhrase == "")
        // The SP before an empty reason is often left out; nothing is ambiguous without it.
        let noReason = try #require(try WebSocketHandshake.parseResponse(Array("HTTP/1.1 401\r\n\r\n".utf8)))
        #expect(noReason.response.status == 401)
    }
}

/// Fuzz/corpus, found from this file's path.
enum FuzzCorpus {
    static func file(_ path: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus").appendingPathComponent(path)
    }
}
