/// Fuzzes `HTTPResponseParser` the way an exchange drives it: a server's bytes arrive in chunks of any
/// size, perhaps followed by the server closing; events come out.
///
/// Input layout (2 bytes of settings, then the server's bytes):
/// - byte 0: bit 0 the request was HEAD; bit 1 the server closes after its bytes; bits 2-3 the limits
///   (head / body): 64 / 64 bytes, 1 KiB / 4 KiB, 64 KiB / 1 MiB, or the defaults 64 KiB / 32 MiB;
/// - byte 1: the largest chunk handed to `append` (0: all at once); chunk sizes vary below it;
/// - the rest: what the server sent.
///
/// Invariants: nothing traps; the bytes parsed whole, in chunks and one byte at a time give the same head,
/// body, end, surplus and error (no outcome depends on the split); at most one head, and its status is
/// 200–999 (interim responses are skipped, 101 refused); header names are lower-case tokens; body pieces
/// are never empty and the body stays within its limit; a body framed by Content-Length (to a request that
/// is not HEAD, status not 204 or 304, no Transfer-Encoding) has exactly that length; surplus only after
/// the end and never more than was sent; an end repeats, an error repeats; every error message is
/// printable ASCII of at most 60 characters (it never quotes the server).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard input.count >= 2 else { return 0 }
    let method = input[0] & 1 == 0 ? "GET" : "HEAD"
    let closes = input[0] & 2 != 0
    let limits = [
        HTTPResponseParser.Limits(maxHeadSize: 64, maxBodySize: 64),
        HTTPResponseParser.Limits(maxHeadSize: 1024, maxBodySize: 4096),
        HTTPResponseParser.Limits(maxHeadSize: 65_536, maxBodySize: 1 << 20),
        HTTPResponseParser.Limits(),
    ][Int(input[0] >> 2) & 3]
    let stream = Array(input[2...])

    let whole = HTTPParserFuzzRun(method: method, limits: limits, maxChunk: 0, closes: closes, stream: stream)
    let chunked = HTTPParserFuzzRun(method: method, limits: limits, maxChunk: Int(input[1]), closes: closes, stream: stream)
    fuzzInvariant(whole.outcome == chunked.outcome, "whole and chunked parses differ: \(whole.outcome) vs \(chunked.outcome)")
    if stream.count <= 512 {
        let bytewise = HTTPParserFuzzRun(method: method, limits: limits, maxChunk: 1, closes: closes, stream: stream)
        fuzzInvariant(whole.outcome == bytewise.outcome, "whole and bytewise parses differ: \(whole.outcome) vs \(bytewise.outcome)")
    }
    whole.checkMeaning(method: method, limits: limits, sent: stream.count)
    return 0
}

struct HTTPParserFuzzOutcome: Equatable, CustomStringConvertible {
    var head: HTTPResponseHead?
    /// Compared only without an error: what was read before one depends on the split.
    var body: [UInt8] = []
    var end: HTTPResponseParser.Event?
    var error: HTTPResponseParseError?
    var surplus = 0

    static func == (a: Self, b: Self) -> Bool {
        if a.error != nil || b.error != nil { return a.error == b.error }
        return a.head == b.head && a.body == b.body && a.end == b.end && a.surplus == b.surplus
    }

    var description: String {
        "head \(head.map { "\($0.status)" } ?? "none"), \(body.count) body bytes, end \(end.map { "\($0)" } ?? "none"), error \(error.map { "\($0)" } ?? "none"), surplus \(surplus)"
    }
}

struct HTTPParserFuzzRun {
    var outcome = HTTPParserFuzzOutcome()

    init(method: String, limits: HTTPResponseParser.Limits, maxChunk: Int, closes: Bool, stream: [UInt8]) {
        var parser = HTTPResponseParser(requestMethod: method, limits: limits)
        var chunkState = UInt32(maxChunk) &* 0x9E37_79B9 | 1
        var offset = 0
        var closed = false
        reading: while true {
            let event: HTTPResponseParser.Event
            do {
                event = try parser.next()
            } catch {
                outcome.error = error
                let again = Result { () throws(HTTPResponseParseError) in try parser.next() }
                fuzzInvariant(again == .failure(error), "error \(error) did not repeat: \(again)")
                break reading
            }
            switch event {
            case .head(let head):
                fuzzInvariant(outcome.head == nil, "a second head")
                outcome.head = head
            case .body(let piece):
                fuzzInvariant(outcome.head != nil, "body before a head")
                fuzzInvariant(!piece.isEmpty, "an empty body piece")
                outcome.body += piece
            case .end:
                fuzzInvariant(outcome.head != nil, "an end without a head")
                outcome.end = event
                let again = Result { () throws(HTTPResponseParseError) in try parser.next() }
                fuzzInvariant(again == .success(event), "the end did not repeat: \(again)")
                break reading
            case .needsMore:
                if offset < stream.count {
                    var length = stream.count - offset
                    if maxChunk > 0 {
                        chunkState ^= chunkState << 13
                        chunkState ^= chunkState >> 17
                        chunkState ^= chunkState << 5
                        length = min(length, 1 + Int(chunkState % UInt32(maxChunk)))
                    }
                    parser.append(stream[offset..<(offset + length)])
                    offset += length
                } else if closes, !closed {
                    parser.appendEndOfStream()
                    closed = true
                } else {
                    fuzzInvariant(!closed, "needs more after the end of the stream")
                    break reading
                }
            }
        }
        if outcome.end != nil {
            if offset < stream.count { parser.append(stream[offset...]) }
            outcome.surplus = parser.surplusByteCount
        } else {
            fuzzInvariant(parser.surplusByteCount == 0, "surplus before the end")
        }
    }

    func checkMeaning(method: String, limits: HTTPResponseParser.Limits, sent: Int) {
        if let error = outcome.error {
            let text = error.description
            fuzzInvariant(text.count <= 60 && text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }, "error text \(text.debugDescription)")
            return
        }
        fuzzInvariant(outcome.body.count <= limits.maxBodySize, "a body of \(outcome.body.count) bytes over the limit \(limits.maxBodySize)")
        fuzzInvariant(outcome.surplus <= sent, "surplus \(outcome.surplus) of \(sent) bytes sent")
        guard let head = outcome.head else { return }
        fuzzInvariant((200...999).contains(head.status), "status \(head.status)")
        for name in head.headers.keys {
            fuzzInvariant(!name.isEmpty && name == name.lowercased() && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") },
                          "header name \(name.debugDescription)")
        }
        if outcome.end != nil, method != "HEAD", head.status != 204, head.status != 304, head.header("transfer-encoding") == nil,
           let declared = head.header("content-length") {
            let length = try? HTTPResponseParser.contentLength(declared)
            fuzzInvariant(length == outcome.body.count, "Content-Length \(declared) but \(outcome.body.count) body bytes")
        }
    }
}
