import Foundation

/// Fuzzes what a server answers to the upgrade request: `WebSocketHandshake.parseResponse`, then
/// `validate` against a fixed handshake, with a secret that must never reach an error message.
///
/// The input is the server's bytes. Its first byte also picks a cut point, so the parser sees a prefix
/// as well, the way the I/O loop calls it while the answer arrives.
///
/// Invariants: nothing traps; nil only without a blank line and within the head size limit; on success
/// the head ends at the first blank line, `rest` is exactly what follows it, header names are lower case
/// and the status is the three digits of the status line; any prefix without the blank line is still
/// incomplete; `validate` passes only a 101 with a matching `Sec-WebSocket-Accept`; every error message
/// is printable ASCII (a hostile server cannot paint on the terminal) without the secret, and a refusal
/// reason has at most 120 characters.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(fuzzInput(data, size))
    guard let first = bytes.first else { return 0 }
    HandshakeFuzzRun.check(bytes, cut: Int(first) * bytes.count / 256)
    return 0
}

enum HandshakeFuzzRun {
    static let secret = "s3cr3t"
    static let blankLine: [UInt8] = [13, 10, 13, 10]
    static let handshake = {
        do {
            return try WebSocketHandshake(url: URL(string: "wss://stream.example.com/v2/iex?token=\(secret)")!, keyBytes: Array("the sample nonce".utf8))
        } catch {
            fatalError("the fixed handshake is valid: \(error)")
        }
    }()

    static func check(_ bytes: [UInt8], cut: Int) {
        let headEnd = firstBlankLine(in: bytes)
        let parsed: (response: WebSocketHandshake.Response, rest: [UInt8])?
        do {
            parsed = try WebSocketHandshake.parseResponse(bytes, secretNames: ["token"], secretValues: [secret])
        } catch {
            checkMessage(error)
            guard case .protocolViolation = error else {
                fuzzInvariant(false, "parseResponse threw \(error)")
                return
            }
            return
        }
        guard let (response, rest) = parsed else {
            fuzzInvariant(headEnd == nil, "nil although the head ends at \(headEnd ?? -1)")
            fuzzInvariant(bytes.count <= WebSocketHandshake.maxResponseHeadSize, "nil for \(bytes.count) bytes without a blank line")
            return
        }
        guard let headEnd else {
            fuzzInvariant(false, "parsed a response without a blank line")
            return
        }
        fuzzInvariant(rest == Array(bytes[(headEnd + 4)...]), "rest is not what follows the first blank line")
        for name in response.headers.keys {
            fuzzInvariant(name == name.lowercased(), "header name \(name.debugDescription) is not lower case")
        }
        let statusDigits = bytes.drop(while: { $0 != UInt8(ascii: " ") }).dropFirst().prefix(3)
        fuzzInvariant(
            statusDigits.count == 3 && statusDigits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                && response.status == Int(String(decoding: statusDigits, as: UTF8.self)),
            "status \(response.status) from \(String(decoding: bytes.prefix(20), as: UTF8.self).debugDescription)")

        // A prefix that stops before the blank line is complete is still waiting for bytes.
        let prefix = Array(bytes.prefix(min(cut, headEnd + 3)))
        do {
            let early = try WebSocketHandshake.parseResponse(prefix)
            fuzzInvariant(early == nil, "a \(prefix.count)-byte prefix parsed although the head ends at \(headEnd)")
        } catch {
            fuzzInvariant(prefix.count > WebSocketHandshake.maxResponseHeadSize, "a prefix threw \(error)")
        }

        do {
            try handshake.validate(response, body: rest, secretNames: ["token"], secretValues: [secret])
            fuzzInvariant(response.status == 101, "validated status \(response.status)")
            fuzzInvariant(response.header("sec-websocket-accept") == handshake.expectedAccept, "validated a wrong accept value")
        } catch {
            checkMessage(error)
            switch error {
            case .handshakeFailed(let status, let reason):
                fuzzInvariant(status == response.status && status != 101, "handshakeFailed(\(status)) for status \(response.status)")
                fuzzInvariant(reason.count <= 120, "refusal reason of \(reason.count) characters")
            case .protocolViolation:
                fuzzInvariant(response.status == 101, "protocolViolation for status \(response.status)")
            default:
                fuzzInvariant(false, "validate threw \(error)")
            }
        }
    }

    /// Printable ASCII, the ellipsis of a shortened reason, and nothing of the secret.
    static func checkMessage(_ error: WebSocketError) {
        let text = error.description
        fuzzInvariant(
            text.unicodeScalars.allSatisfy { (0x20..<0x7F).contains($0.value) || $0 == "…" },
            "unprintable error message \(text.debugDescription)")
        fuzzInvariant(!text.contains(secret), "the secret leaked into \(text.debugDescription)")
    }

    static func firstBlankLine(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(blankLine) }
    }
}
