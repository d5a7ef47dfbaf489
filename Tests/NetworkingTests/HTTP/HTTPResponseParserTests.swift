@testable import Networking
import Testing

/// `HTTPResponseParser` as a value: every branch, each checked with the input whole, split in two at
/// every byte boundary, and fed one byte at a time (`ParsedResponse.read` must agree on all of them).
@Suite struct HTTPResponseParserTests {
    // MARK: - Heads

    @Test func aContentLengthBodyIsReadAndTheConnectionKept() {
        let parsed = ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n{\"ok\":true}\n")

        #expect(parsed.error == nil)
        #expect(parsed.head == HTTPResponseHead(status: 200, minorVersion: 1, reasonPhrase: "OK", headers: ["content-type": "application/json", "content-length": "12"]))
        #expect(parsed.bodyText == "{\"ok\":true}\n")
        #expect(parsed.end == .init(trailers: [:], keepAlive: true))
        #expect(parsed.surplus == 0)
    }

    @Test func headerNamesAreCaseInsensitiveRepeatsFoldedAndWhitespaceTrimmed() {
        let parsed = ParsedResponse.read(
            "HTTP/1.1 200 OK\r\nX-Rate: 1\r\nx-RATE:2\r\nX-Note: \t spaced out \t\r\nX-Long: first\r\n  second\r\n\tthird\r\nX-Empty:\r\nContent-Length: 0\r\n\r\n"
        )

        #expect(parsed.head?.headers == ["x-rate": "1, 2", "x-note": "spaced out", "x-long": "first second third", "x-empty": "", "content-length": "0"])
        #expect(parsed.head?.header("X-RATE") == "1, 2")
        #expect(parsed.end?.keepAlive == true)
    }

    @Test func bareLineFeedsEndLinesToo() {
        let parsed = ParsedResponse.read("HTTP/1.1 201 Created\nLocation: /orders/1\nContent-Length: 2\n\nok")

        #expect(parsed.head?.status == 201)
        #expect(parsed.head?.reasonPhrase == "Created")
        #expect(parsed.head?.header("location") == "/orders/1")
        #expect(parsed.bodyText == "ok")
    }

    @Test func theReasonPhraseMayBeEmptyOrMissing() {
        #expect(ParsedResponse.read("HTTP/1.1 204\r\n\r\n").head?.reasonPhrase == "")
        #expect(ParsedResponse.read("HTTP/1.1 204 \r\n\r\n").head?.reasonPhrase == "")
        #expect(ParsedResponse.read("HTTP/1.1 200 Very Much OK\r\nContent-Length: 0\r\n\r\n").head?.reasonPhrase == "Very Much OK")
    }

    @Test func malformedStatusLinesAreRefused() {
        for line in [
            "HTTP/2 200 OK", "HTTP/1.1 20 OK", "HTTP/1.1 200OK", "HTTP/1.1 099 Low", "HTTP/1.1 +01 OK", "ICY 200 OK",
            "HTTP/1.1  200 OK", "http/1.1 200 OK", "HTTP/1.x 200 OK", "HTTP/1.1 2000 OK", "HTTP/1.1 200 O\u{0}K", "HTTP/1.1 200 O\rK",
        ] {
            #expect(ParsedResponse.read(line + "\r\nContent-Length: 0\r\n\r\n").error == .malformedStatusLine, "\(line.debugDescription)")
        }
        #expect(ParsedResponse.read("\r\nHTTP/1.1 200 OK\r\n\r\n").error == .malformedStatusLine)
    }

    @Test func malformedHeaderFieldsAreRefusedWithTheirLine() {
        let cases: [(String, Int)] = [
            ("X-Fine: 1\r\nNo colon here", 2),
            ("Name : space before the colon", 1),
            (": no name", 1),
            ("X-Fine: 1\r\nX-Null: a\u{0}b", 2),
            ("X-Cr: a\rb", 1),
            ("  folded onto nothing", 1),
            ("Bad(Name): 1", 1),
        ]
        for (fields, line) in cases {
            let parsed = ParsedResponse.read("HTTP/1.1 200 OK\r\n\(fields)\r\nContent-Length: 0\r\n\r\n")
            #expect(parsed.error == .malformedHeaderField(line: line), "\(fields.debugDescription)")
        }
    }

    @Test func interimResponsesAreSkipped() {
        let parsed = ParsedResponse.read(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"
        )

        #expect(parsed.head == HTTPResponseHead(status: 200, minorVersion: 1, reasonPhrase: "OK", headers: ["content-length": "2"]))
        #expect(parsed.bodyText == "hi")
    }

    @Test func switchingProtocolsIsAnError() {
        #expect(ParsedResponse.read("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n").error == .unexpectedSwitchingProtocols)
    }

    // MARK: - Bodies

    @Test func chunkedBodiesAreJoinedWithExtensionsIgnoredAndTrailersRead() {
        let parsed = ParsedResponse.read(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;name=value\r\nWiki\r\n5 ; quoted=\"a;b\"\r\npedia\r\n00E\r\n in\r\n\r\nchunks.\r\n"
                + "0\r\nExpires: never\r\nX-Sum: 1\r\nx-sum: 2\r\n\r\n"
        )

        #expect(parsed.error == nil)
        #expect(parsed.bodyText == "Wikipedia in\r\n\r\nchunks.")
        #expect(parsed.end == .init(trailers: ["expires": "never", "x-sum": "1, 2"], keepAlive: true))
    }

    @Test func chunkSizesAreHexInEitherCaseAndLinesMayEndInLineFeedAlone() {
        let body = String(repeating: "x", count: 0x1A)
        let parsed = ParsedResponse.read("HTTP/1.1 200 OK\nTransfer-Encoding: Chunked\n\n1a\n\(body)\n1A\r\n\(body)\r\n0\n\n")

        #expect(parsed.bodyText == body + body)
        #expect(parsed.end == .init(trailers: [:], keepAlive: true))
    }

    @Test func malformedChunksAreRefused() {
        for chunks in ["zz\r\nabc\r\n0\r\n\r\n", "3\r\nabcX\r\n0\r\n\r\n", "3\r\nabc\rX0\r\n\r\n", "3 x\r\nabc\r\n0\r\n\r\n", ";\r\n", "3;a\u{0}\r\nabc\r\n0\r\n\r\n"] {
            let parsed = ParsedResponse.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks)
            #expect(parsed.error == .malformedChunk, "\(chunks.debugDescription)")
        }
        let longLine = "1;" + String(repeating: "e", count: HTTPResponseParser.maxChunkSizeLine) + "\r\nx\r\n0\r\n\r\n"
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + longLine).error == .malformedChunk)
    }

    @Test func aBodyWithoutLengthIsReadUntilTheServerCloses() {
        let response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end"

        let closed = ParsedResponse.read(response, thenClose: true)
        let open = ParsedResponse.read(response, thenClose: false)

        #expect(closed.bodyText == "until the end")
        #expect(closed.end == .init(trailers: [:], keepAlive: false))
        #expect(open.end == nil)
        #expect(open.error == nil)
        #expect(open.bodyText == "until the end")
    }

    @Test func headAnd204And304HaveNoBodyWhateverTheirLength() {
        let head = ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", method: "head")
        let noContent = ParsedResponse.read("HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n")
        let notModified = ParsedResponse.read("HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n")

        for parsed in [head, noContent, notModified] {
            #expect(parsed.error == nil)
            #expect(parsed.body.isEmpty)
            #expect(parsed.end == .init(trailers: [:], keepAlive: true))
        }
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").end == .init(trailers: [:], keepAlive: true))
    }

    @Test func whetherTheConnectionOutlivesTheResponse() {
        func keepAlive(_ head: String) -> Bool? { ParsedResponse.read(head + "\r\n\r\n").end?.keepAlive }

        #expect(keepAlive("HTTP/1.1 200 OK\r\nContent-Length: 0") == true)
        #expect(keepAlive("HTTP/1.1 200 OK\r\nConnection: Close\r\nContent-Length: 0") == false)
        #expect(keepAlive("HTTP/1.1 200 OK\r\nConnection: x-other, close\r\nContent-Length: 0") == false)
        #expect(keepAlive("HTTP/1.0 200 OK\r\nContent-Length: 0") == false)
        #expect(keepAlive("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0") == true)
        #expect(keepAlive("HTTP/1.9 200 OK\r\nContent-Length: 0") == true)
        // Chunks and a length at once: the chunks frame the body, and the connection is not used again.
        let both = ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n")
        #expect(both.bodyText == "ok")
        #expect(both.end?.keepAlive == false)
    }

    @Test func contentLengthMustBeOneDecimalNumber() {
        for value in ["abc", "-1", "+5", "1, 2", "", "0x10", "1 2", "5,", "1234567890123456789"] {
            #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Length: \(value)\r\n\r\n").error == .invalidContentLength, "\(value.debugDescription)")
        }
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\nhello").bodyText == "hello")
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello").bodyText == "hello")
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nhello").error == .invalidContentLength)
    }

    @Test func transferCodingsOtherThanChunkedAreRefused() {
        for codings in ["gzip, chunked", "gzip", "chunked, chunked", "", "identity"] {
            #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: \(codings)\r\n\r\n0\r\n\r\n").error == .unsupportedTransferCoding, "\(codings)")
        }
    }

    @Test func bytesAfterTheResponseAreSurplus() {
        let parsed = ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhiEXTRA")

        #expect(parsed.bodyText == "hi")
        #expect(parsed.end?.keepAlive == true)
        #expect(parsed.surplus == 5)
    }

    // MARK: - Limits

    @Test func theDefaultLimitsAre64KiBOfHeadAnd32MiBOfBody() {
        #expect(HTTPResponseParser.Limits() == .init(maxHeadSize: 65_536, maxBodySize: 33_554_432))
        #expect(HTTPResponseParseError.headTooLarge(limit: 65_536).description == "response head over 64 KiB")
        #expect(HTTPResponseParseError.bodyTooLarge(limit: 33_554_432).description == "response body over 32 MiB")
    }

    @Test func aHeadLargerThanTheLimitIsRefused() {
        let limits = HTTPResponseParser.Limits(maxHeadSize: 64, maxBodySize: 1024)
        let fitting = "HTTP/1.1 200 OK\r\nX-Pad: " + String(repeating: "a", count: 64 - 17 - 7 - 4) + "\r\n\r\n"
        #expect(fitting.utf8.count == 64)

        #expect(ParsedResponse.read(fitting, limits: limits, thenClose: true).error == nil)
        #expect(ParsedResponse.read(fitting.replacingOccurrences(of: "X-Pad: ", with: "X-Pad: b"), limits: limits, thenClose: true).error == .headTooLarge(limit: 64))
        // Never ending: refused once more than the limit is buffered, not at the close.
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nX-Pad: " + String(repeating: "a", count: 100), limits: limits, thenClose: false).error == .headTooLarge(limit: 64))
    }

    @Test func bodiesLargerThanTheLimitAreRefusedHoweverFramed() {
        let limits = HTTPResponseParser.Limits(maxHeadSize: 1024, maxBodySize: 10)
        let eleven = String(repeating: "z", count: 11)

        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n" + eleven.dropLast(), limits: limits).bodyText == String(eleven.dropLast()))
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n", limits: limits).error == .bodyTooLarge(limit: 10))
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nzzzzzz\r\n5\r\nzzzzz\r\n0\r\n\r\n", limits: limits).error == .bodyTooLarge(limit: 10))
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n", limits: limits).error == .bodyTooLarge(limit: 10))
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\n\r\n" + eleven, limits: limits, thenClose: true).error == .bodyTooLarge(limit: 10))
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\n\r\n" + eleven.dropLast(), limits: limits, thenClose: true).bodyText == String(eleven.dropLast()))
    }

    @Test func trailersCountAgainstTheHeadLimit() {
        let limits = HTTPResponseParser.Limits(maxHeadSize: 48, maxBodySize: 1024)
        let trailer = "X-Trailer: " + String(repeating: "t", count: 40) + "\r\n\r\n"

        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n" + trailer, limits: limits).error == .headTooLarge(limit: 48))
    }

    // MARK: - The server closing

    @Test func aCloseIsNamedByWhereItCameIn() {
        #expect(ParsedResponse.read("", thenClose: true).error == .closedBeforeResponse)
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Le", thenClose: true).error == .closedInHead)
        #expect(ParsedResponse.read("HTTP/1.1 100 Continue\r\n\r\n", thenClose: true).error == .closedInHead)
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf", thenClose: true).error == .closedInBody)
        for cut in ["4\r\nWi", "4\r\nWiki", "4\r\nWiki\r", "4\r\nWiki\r\n0\r\nX-T: 1\r\n", "4"] {
            let parsed = ParsedResponse.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + cut, thenClose: true)
            #expect(parsed.error == .closedInBody, "\(cut.debugDescription)")
        }
        #expect(ParsedResponse.read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf", thenClose: false).error == nil)
    }

    @Test func anErrorRepeatsAndAnEndStays() throws {
        var failing = HTTPResponseParser(requestMethod: "GET")
        failing.append(Array("HTTP/9 200 OK\r\n\r\n".utf8))
        #expect(throws: HTTPResponseParseError.malformedStatusLine) { try failing.next() }
        failing.append(Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
        #expect(throws: HTTPResponseParseError.malformedStatusLine) { try failing.next() }

        var ended = HTTPResponseParser(requestMethod: "GET")
        ended.append(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))
        #expect(try ended.next() == .head(HTTPResponseHead(status: 204, minorVersion: 1, reasonPhrase: "No Content", headers: [:])))
        #expect(try ended.next() == .end(trailers: [:], keepAlive: true))
        #expect(try ended.next() == .end(trailers: [:], keepAlive: true))
    }
}

/// What the parser made of a whole input; `read` also checks that every split of it gives the same.
struct ParsedResponse: Equatable {
    struct End: Equatable {
        var trailers: [String: String]
        var keepAlive: Bool
    }

    var head: HTTPResponseHead?
    var body: [UInt8] = []
    var end: End?
    var error: HTTPResponseParseError?
    var surplus = 0

    var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Parses `text` whole, split at every byte boundary, and one byte at a time; records an issue when
    /// they disagree, and returns the whole reading. After an error the body read so far depends on where
    /// the input was split, so only the error is compared then.
    static func read(
        _ text: String, method: String = "GET", limits: HTTPResponseParser.Limits = .init(), thenClose: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ParsedResponse {
        let bytes = Array(text.utf8)
        let whole = parse([bytes], method: method, limits: limits, thenClose: thenClose)
        var splits = (0...bytes.count).map { [Array(bytes[..<$0]), Array(bytes[$0...])] }
        splits.append(bytes.map { [$0] })
        for pieces in splits {
            let split = parse(pieces, method: method, limits: limits, thenClose: thenClose)
            if split.comparable != whole.comparable {
                Issue.record("split \(pieces.map(\.count)) read \(split), whole \(whole)", sourceLocation: sourceLocation)
                break
            }
        }
        return whole
    }

    private var comparable: ParsedResponse {
        guard error != nil else { return self }
        return ParsedResponse(head: nil, error: error)
    }

    private static func parse(_ pieces: [[UInt8]], method: String, limits: HTTPResponseParser.Limits, thenClose: Bool) -> ParsedResponse {
        var parser = HTTPResponseParser(requestMethod: method, limits: limits)
        var result = ParsedResponse()
        var remaining = pieces[...]
        var streamClosed = false
        do {
            reading: while true {
                switch try parser.next() {
                case .head(let head):
                    if result.head != nil { Issue.record("a second head: \(head)") }
                    result.head = head
                case .body(let piece):
                    if piece.isEmpty { Issue.record("an empty body piece") }
                    result.body += piece
                case .end(let trailers, let keepAlive):
                    result.end = End(trailers: trailers, keepAlive: keepAlive)
                    break reading
                case .needsMore:
                    if let piece = remaining.popFirst() {
                        parser.append(piece)
                    } else if thenClose, !streamClosed {
                        parser.appendEndOfStream()
                        streamClosed = true
                    } else {
                        break reading
                    }
                }
            }
        } catch {
            result.error = error
        }
        if result.end != nil {
            for piece in remaining { parser.append(piece) }
            result.surplus = parser.surplusByteCount
        }
        return result
    }
}
