@testable import Networking
import Testing

@Suite struct NATSHeadersTests {
    static func parse(_ text: String) throws(NATSProtocolError) -> NATSHeaders { try NATSHeaders.parse(Array(text.utf8)) }

    @Test func statusLinesOfTheServer() throws {
        #expect(try Self.parse("NATS/1.0 503\r\n\r\n") == NATSHeaders(statusCode: 503))
        #expect(try Self.parse("NATS/1.0 404 No Messages\r\n\r\n") == NATSHeaders(statusCode: 404, statusDescription: "No Messages"))
        #expect(try Self.parse("NATS/1.0 100 Idle Heartbeat\r\nNats-Last-Consumer: 12\r\nNats-Last-Stream: 40\r\n\r\n")
            == NATSHeaders([("Nats-Last-Consumer", "12"), ("Nats-Last-Stream", "40")], statusCode: 100, statusDescription: "Idle Heartbeat"))
        #expect(try Self.parse("NATS/1.0\r\n\r\n") == NATSHeaders())
    }

    @Test func valuesAreTrimmedNamesKeepTheirCaseAndMayRepeat() throws {
        let headers = try Self.parse("NATS/1.0\r\nX-A:  one \r\nx-a:two\r\nX-A:\tthree\r\nEmpty:\r\n\r\n")
        #expect(headers.values(named: "X-A") == ["one", "three"])
        #expect(headers["x-a"] == "two")
        #expect(headers["Empty"] == "")
        #expect(headers["Missing"] == nil)
        var changed = headers
        changed.set("X-A", "only")
        #expect(changed.values(named: "X-A") == ["only"])
        #expect(try NATSHeaders.parse(changed.encoded) == changed)
    }

    @Test func malformedBlocksAreRefusedWithTheReason() {
        let cases: [(String, String)] = [
            ("hello", "header block does not end with a blank line"),
            ("NATS/1.0\r\n", "header block does not end with a blank line"),
            ("HTTP/1.1 200\r\n\r\n", "header block does not start with NATS/1.0: \"HTTP/1.1 200\""),
            ("NATS/1.01\r\n\r\n", "unknown header version \"NATS/1.01\""),
            ("NATS/1.0 50\r\n\r\n", "status \"50\" does not start with a 3-digit code"),
            ("NATS/1.0 5033\r\n\r\n", "status \"5033\" does not start with a 3-digit code"),
            ("NATS/1.0\r\nNo colon\r\n\r\n", "header line without ':': \"No colon\""),
            ("NATS/1.0\r\nBad Name: v\r\n\r\n", "invalid header name \"Bad Name\""),
            ("NATS/1.0\nX: v\r\n\r\n", "header line not terminated by CRLF"),
            ("NATS/1.0\r\n\r\nextra", "bytes after the header block's blank line"),
        ]
        for (block, reason) in cases {
            #expect(throws: NATSProtocolError(reason), "\(block.debugDescription)") { try Self.parse(block) }
        }
    }

    @Test func whatCannotBeSentIsNamedBeforeSending() {
        #expect(NATSHeaders([("Nats-Msg-Id", "abc")]).problem == nil)
        #expect(NATSHeaders([("Bad Name", "v")]).problem == "header name \"Bad Name\" must be printable ASCII without ':' or spaces")
        #expect(NATSHeaders([("A:B", "v")]).problem == "header name \"A:B\" must be printable ASCII without ':' or spaces")
        #expect(NATSHeaders([("", "v")]).problem == "a header name is empty")
        #expect(NATSHeaders([("X", "two\r\nlines")]).problem == "the value of header X holds a line break")
        #expect(NATSHeaders(statusCode: 42).problem == "status code 42 is not 3 digits")
    }
}
