/// One HTTP/1.1 response read from a byte stream (RFC 9112), as a value: bytes go in with `append` (and
/// `appendEndOfStream` when the peer closes), events come out of `next`: the head, pieces of the body,
/// the end, or "needs more". No I/O and no clock, so every split of the input can be tested.
///
/// What it reads:
/// - the status line `HTTP/1.x SP 3DIGIT [SP reason]` and header fields (names case-insensitive, a
///   field sent twice folded into one value, obsolete line folding replaced by a space, RFC 9112 §5.2);
///   lines end in CRLF or a bare LF (RFC 9112 §2.2 lets a recipient take LF alone);
/// - interim 1xx responses, skipped (101 is an error: we never ask to switch protocols);
/// - the body by Content-Length, by the chunked transfer coding (extensions ignored, trailers read), or
///   until the server closes; none for a HEAD request, 204 or 304 (RFC 9112 §6.3);
/// - limits: the head (and a chunked body's trailers) at most `maxHeadSize` bytes, the body at most
///   `maxBodySize`, so a hostile or broken server cannot make us buffer without end.
/// Once it has thrown, every later `next` throws the same error.
struct HTTPResponseParser: Sendable {
    struct Limits: Sendable, Hashable {
        var maxHeadSize: Int
        var maxBodySize: Int

        init(maxHeadSize: Int = 64 * 1024, maxBodySize: Int = 32 * 1024 * 1024) {
            self.maxHeadSize = maxHeadSize
            self.maxBodySize = maxBodySize
        }
    }

    enum Event: Sendable, Hashable {
        case needsMore
        /// The final response's head; 1xx heads are skipped.
        case head(HTTPResponseHead)
        /// The next piece of the body (de-chunked); never empty.
        case body([UInt8])
        /// The response is complete; `next` keeps returning this. `keepAlive`: the connection may carry
        /// another request (HTTP/1.1 without `Connection: close`, or 1.0 with `keep-alive`, and a body
        /// whose end was framed rather than read until the close).
        case end(trailers: [String: String], keepAlive: Bool)
    }

    private enum State: Sendable, Hashable {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case untilClose
        case complete(trailers: [String: String])
        case failed(HTTPResponseParseError)
    }

    /// A chunk-size line with its extensions; extensions are ignored, so a longer line is no server of ours.
    static let maxChunkSizeLine = 4096

    let limits: Limits
    /// False for the answer to HEAD: its Content-Length describes a body that is not sent.
    private let expectsBody: Bool
    private var buffer: [UInt8] = []
    /// The first byte not yet consumed.
    private var start = 0
    /// Where the search for a line end resumes: always the start of a line not yet examined.
    private var scan = 0
    private var state = State.head
    private var streamEnded = false
    private var receivedAnyByte = false
    private var bodyBytes = 0
    private var keepAlive = false

    init(requestMethod: String, limits: Limits = Limits()) {
        self.limits = limits
        expectsBody = requestMethod.uppercased() != "HEAD"
    }

    /// Bytes that arrived after the end of the response. A server that sends them (an unasked second
    /// answer, garbage) has left the connection in a state no next request can rely on.
    var surplusByteCount: Int {
        if case .complete = state { return buffer.count - start }
        return 0
    }

    mutating func append<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        guard !bytes.isEmpty else { return }
        receivedAnyByte = true
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            scan -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The peer closed its side: what is buffered is all there will be.
    mutating func appendEndOfStream() {
        streamEnded = true
    }

    mutating func next() throws(HTTPResponseParseError) -> Event {
        do {
            return try advance()
        } catch {
            state = .failed(error)
            throw error
        }
    }

    // MARK: - States

    private mutating func advance() throws(HTTPResponseParseError) -> Event {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .complete(let trailers):
                return .end(trailers: trailers, keepAlive: keepAlive)
            case .head:
                guard let end = try blockEnd() else {
                    if streamEnded { throw receivedAnyByte ? .closedInHead : .closedBeforeResponse }
                    return .needsMore
                }
                let head = try Self.head(from: lines(start, end))
                consume(upTo: end)
                if head.status == 101 { throw .unexpectedSwitchingProtocols }
                if head.status < 200 { continue }
                try frameBody(of: head)
                return .head(head)
            case .fixedBody(let remaining):
                guard let piece = takeBody(atMost: remaining) else {
                    if streamEnded { throw .closedInBody }
                    return .needsMore
                }
                state = piece.count == remaining ? .complete(trailers: [:]) : .fixedBody(remaining: remaining - piece.count)
                return .body(piece)
            case .untilClose:
                if let piece = takeBody(atMost: .max) {
                    bodyBytes += piece.count
                    if bodyBytes > limits.maxBodySize { throw .bodyTooLarge(limit: limits.maxBodySize) }
                    return .body(piece)
                }
                guard streamEnded else { return .needsMore }
                state = .complete(trailers: [:])
            case .chunkSize:
                guard let lineEnd = try lineEnd(limit: Self.maxChunkSizeLine, tooLong: .malformedChunk) else {
                    if streamEnded { throw .closedInBody }
                    return .needsMore
                }
                let size = try chunkSize(in: buffer[start..<lineEnd])
                consume(upTo: lineEnd + 1)
                if size > limits.maxBodySize - bodyBytes { throw .bodyTooLarge(limit: limits.maxBodySize) }
                bodyBytes += size
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                guard let piece = takeBody(atMost: remaining) else {
                    if streamEnded { throw .closedInBody }
                    return .needsMore
                }
                state = piece.count == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - piece.count)
                return .body(piece)
            case .chunkDataEnd:
                let available = buffer.count - start
                if available >= 1, buffer[start] == .lineFeed {
                    consume(upTo: start + 1)
                } else if available >= 2, buffer[start] == .carriageReturn, buffer[start + 1] == .lineFeed {
                    consume(upTo: start + 2)
                } else if available >= 2 || (available == 1 && buffer[start] != .carriageReturn) {
                    throw .malformedChunk
                } else {
                    if streamEnded { throw .closedInBody }
                    return .needsMore
                }
                state = .chunkSize
            case .trailers:
                guard let end = try blockEnd() else {
                    if streamEnded { throw .closedInBody }
                    return .needsMore
                }
                let trailers = try Self.fields(from: lines(start, end), firstLineNumber: 1)
                consume(upTo: end)
                state = .complete(trailers: trailers)
            }
        }
    }

    /// Chooses how the body ends (RFC 9112 §6.3) and whether the connection outlives it.
    private mutating func frameBody(of head: HTTPResponseHead) throws(HTTPResponseParseError) {
        let connection = Set((head.header("connection") ?? "").split(separator: ",").map { $0.trimmed.lowercased() })
        let persistent = head.minorVersion >= 1 ? !connection.contains("close") : connection.contains("keep-alive")
        keepAlive = persistent
        if !expectsBody || head.status == 204 || head.status == 304 {
            state = .complete(trailers: [:])
        } else if let codings = head.header("transfer-encoding") {
            guard codings.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmed.lowercased() }) == ["chunked"] else {
                throw .unsupportedTransferCoding
            }
            // Both framings at once is how requests get smuggled: the chunks win, and the connection,
            // which some intermediary may read the other way, is not used again (RFC 9112 §6.3 item 3).
            if head.header("content-length") != nil { keepAlive = false }
            state = .chunkSize
        } else if let declared = head.header("content-length") {
            let length = try Self.contentLength(declared)
            if length > limits.maxBodySize { throw .bodyTooLarge(limit: limits.maxBodySize) }
            state = length == 0 ? .complete(trailers: [:]) : .fixedBody(remaining: length)
        } else {
            keepAlive = false
            state = .untilClose
        }
    }

    // MARK: - Bytes

    private mutating func consume(upTo index: Int) {
        start = index
        scan = index
    }

    private mutating func takeBody(atMost limit: Int) -> [UInt8]? {
        let count = min(buffer.count - start, limit)
        guard count > 0 else { return nil }
        let piece = Array(buffer[start..<(start + count)])
        consume(upTo: start + count)
        return piece
    }

    /// The index just past the empty line that ends the head or trailer section starting at `start`, or
    /// nil while it has not arrived. Throws once the section is longer than the head limit.
    private mutating func blockEnd() throws(HTTPResponseParseError) -> Int? {
        while let lineFeed = buffer[scan...].firstIndex(of: .lineFeed) {
            let length = lineFeed - scan
            let isEmpty = length == 0 || (length == 1 && buffer[scan] == .carriageReturn)
            scan = lineFeed + 1
            if scan - start > limits.maxHeadSize { throw .headTooLarge(limit: limits.maxHeadSize) }
            if isEmpty { return scan }
        }
        if buffer.count - start > limits.maxHeadSize { throw .headTooLarge(limit: limits.maxHeadSize) }
        return nil
    }

    /// The index of the line feed ending the line at `start`, or nil while it has not arrived.
    private mutating func lineEnd(limit: Int, tooLong: HTTPResponseParseError) throws(HTTPResponseParseError) -> Int? {
        if let lineFeed = buffer[scan...].firstIndex(of: .lineFeed) {
            if lineFeed + 1 - start > limit { throw tooLong }
            return lineFeed
        }
        scan = buffer.count
        if buffer.count - start > limit { throw tooLong }
        return nil
    }

    /// The lines of `buffer[from..<to]`, each without its LF or CRLF, the final empty line left out.
    private func lines(_ from: Int, _ to: Int) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = from
        while lineStart < to, let lineFeed = buffer[lineStart..<to].firstIndex(of: .lineFeed) {
            var line = buffer[lineStart..<lineFeed]
            if line.last == .carriageReturn { line = line.dropLast() }
            lines.append(line)
            lineStart = lineFeed + 1
        }
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    // MARK: - Grammar

    private static func head(from lines: [ArraySlice<UInt8>]) throws(HTTPResponseParseError) -> HTTPResponseHead {
        guard let statusLine = lines.first else { throw .malformedStatusLine }
        let (status, minorVersion, reason) = try Self.statusLine(statusLine)
        let headers = try fields(from: lines.dropFirst(), firstLineNumber: 1)
        return HTTPResponseHead(status: status, minorVersion: minorVersion, reasonPhrase: reason, headers: headers)
    }

    /// `HTTP/1.x SP 3DIGIT [SP reason]`, read as bytes: a combining mark after a space must not join it
    /// (the WebSocket handshake's parser once fell for that, see Fuzz/README.md).
    private static func statusLine(_ line: ArraySlice<UInt8>) throws(HTTPResponseParseError) -> (Int, Int, String) {
        let bytes = Array(line)
        let prefix = Array("HTTP/1.".utf8)
        guard bytes.count >= 12, Array(bytes[0..<7]) == prefix, bytes[7].isDigit, bytes[8] == .space,
              bytes[9].isDigit, bytes[10].isDigit, bytes[11].isDigit, bytes[9] != UInt8(ascii: "0")
        else { throw .malformedStatusLine }
        let reason = bytes[12...]
        if let first = reason.first, first != .space { throw .malformedStatusLine }
        if reason.contains(where: { $0 == 0 || $0 == .carriageReturn }) { throw .malformedStatusLine }
        let status = bytes[9...11].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return (status, Int(bytes[7] - UInt8(ascii: "0")), String(decoding: reason.dropFirst(), as: UTF8.self))
    }

    /// `name: value` lines, numbered from `firstLineNumber` for errors. A line starting with a space or
    /// tab continues the previous field's value (obs-fold).
    private static func fields(from lines: some Collection<ArraySlice<UInt8>>, firstLineNumber: Int) throws(HTTPResponseParseError) -> [String: String] {
        var fields: [(name: String, value: [UInt8])] = []
        for (offset, line) in lines.enumerated() {
            let lineNumber = firstLineNumber + offset
            if line.contains(where: { $0 == 0 || $0 == .carriageReturn }) { throw .malformedHeaderField(line: lineNumber) }
            if let first = line.first, first == .space || first == .tab {
                guard !fields.isEmpty else { throw .malformedHeaderField(line: lineNumber) }
                let continuation = line.trimmedOptionalWhitespace
                if !continuation.isEmpty {
                    fields[fields.count - 1].value += fields[fields.count - 1].value.isEmpty ? Array(continuation) : [.space] + continuation
                }
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[line.startIndex..<colon].allSatisfy(\.isTokenCharacter)
            else { throw .malformedHeaderField(line: lineNumber) }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            fields.append((name, Array(line[(colon + 1)...].trimmedOptionalWhitespace)))
        }
        var headers: [String: String] = [:]
        for (name, value) in fields {
            let text = String(decoding: value, as: UTF8.self)
            headers[name] = headers[name].map { "\($0), \(text)" } ?? text
        }
        return headers
    }

    /// RFC 9110 §8.6: digits only; a list of equal values (a field repeated, or folded by a proxy) is one.
    static func contentLength(_ value: String) throws(HTTPResponseParseError) -> Int {
        let values = Set(value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmed })
        guard values.count == 1, let only = values.first, !only.isEmpty, only.utf8.count <= 18,
              only.utf8.allSatisfy(\.isDigit), let length = Int(only)
        else { throw .invalidContentLength }
        return length
    }

    /// `1*HEXDIG [BWS ";" chunk-ext]` (RFC 9112 §7.1); the extensions are ignored.
    private func chunkSize(in line: ArraySlice<UInt8>) throws(HTTPResponseParseError) -> Int {
        var line = line
        if line.last == .carriageReturn { line = line.dropLast() }
        let digits = line.prefix(while: \.isHexDigit)
        guard !digits.isEmpty else { throw .malformedChunk }
        let rest = line[digits.endIndex...].drop(while: { $0 == .space || $0 == .tab })
        if let first = rest.first, first != UInt8(ascii: ";") { throw .malformedChunk }
        if rest.contains(where: { $0 == 0 || $0 == .carriageReturn }) { throw .malformedChunk }
        let significant = digits.drop(while: { $0 == UInt8(ascii: "0") })
        // Fifteen hex digits already exceed any body limit an Int can hold; more cannot be a real size.
        guard significant.count <= 15 else { throw .bodyTooLarge(limit: limits.maxBodySize) }
        return significant.reduce(0) { $0 << 4 | $1.hexValue }
    }
}

private extension UInt8 {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

    var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }

    var hexValue: Int {
        if isDigit { return Int(self - UInt8(ascii: "0")) }
        return Int((self | 0x20) - UInt8(ascii: "a")) + 10
    }

    /// RFC 9110 §5.6.2 tchar.
    var isTokenCharacter: Bool {
        let lowered = self | 0x20
        if isDigit || (lowered >= UInt8(ascii: "a") && lowered <= UInt8(ascii: "z")) { return true }
        return UInt8.tokenSymbols.contains(self)
    }

    private static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)
}

private extension ArraySlice<UInt8> {
    /// Without leading and trailing spaces and tabs (OWS, RFC 9110 §5.6.3).
    var trimmedOptionalWhitespace: ArraySlice<UInt8> {
        var lower = startIndex
        var upper = endIndex
        while lower < upper, self[lower] == .space || self[lower] == .tab { lower += 1 }
        while upper > lower, self[upper - 1] == .space || self[upper - 1] == .tab { upper -= 1 }
        return self[lower..<upper]
    }
}

private extension Substring {
    /// Without leading and trailing spaces and tabs, as a list element of a header value.
    var trimmed: String {
        var lower = startIndex
        var upper = endIndex
        while lower < upper, self[lower] == " " || self[lower] == "\t" { lower = index(after: lower) }
        while upper > lower, self[index(before: upper)] == " " || self[index(before: upper)] == "\t" { upper = index(before: upper) }
        return String(self[lower..<upper])
    }
}
