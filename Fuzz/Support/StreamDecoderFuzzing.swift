import Foundation

/// What the shared stream-decoder harness needs from a broker's decoder: the byte-level entry point every
/// `<Broker>StreamDecoder` has, and which strictly valid JSON the broker's decoder must accept.
protocol FuzzedStreamDecoder {
    associatedtype Event: Hashable
    static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(StreamJSONScanner.Failure) -> [Event]
    /// True for parsed JSON (Foundation's `JSONSerialization`, fragments allowed) that the decoder must
    /// not throw on: a top-level array for Polygon and Alpaca.
    static func mustAccept(_ json: Any) -> Bool
}

/// One input through a broker's stream decoder. Invariants: nothing traps or reads out of bounds (the
/// input buffer is libFuzzer's own, exactly sized); decoding is deterministic; and an input that is
/// strictly valid JSON of the shape the broker sends decodes without throwing, with Foundation's parser
/// as the oracle (asked only when the decoder throws, so the fuzzer stays fast).
enum StreamDecoderFuzzing {
    static func run<Decoder: FuzzedStreamDecoder>(_: Decoder.Type, _ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        let bytes = fuzzInput(data, size)
        let first: [Decoder.Event]
        do {
            first = try Decoder.decode(utf8: bytes)
        } catch {
            fuzzInvariant(error.offset >= 0 && error.offset <= bytes.count, "failure offset \(error.offset) outside \(bytes.count) bytes")
            if let json = strictJSON(bytes) {
                fuzzInvariant(!Decoder.mustAccept(json), "threw \(error) on valid JSON \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
            return 0
        }
        do {
            let second = try Decoder.decode(utf8: bytes)
            fuzzInvariant(second == first, "decoding the same bytes twice gave different events")
        } catch {
            fuzzInvariant(false, "decoding the same bytes twice threw the second time: \(error)")
        }
        return 0
    }

    /// `bytes` parsed by Foundation, or nil unless they are JSON per RFC 8259. Foundation tolerates a
    /// trailing comma before `]` or `}` and guesses UTF-16 or UTF-32 from NUL bytes and byte order marks;
    /// none of that is JSON the brokers send, so such inputs get no verdict.
    static func strictJSON(_ bytes: UnsafeBufferPointer<UInt8>) -> Any? {
        guard !bytes.contains(0), !bytes.starts(with: [0xEF, 0xBB, 0xBF]), !bytes.starts(with: [0xFE, 0xFF]),
              !bytes.starts(with: [0xFF, 0xFE]), !hasTrailingComma(bytes)
        else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(buffer: bytes), options: .fragmentsAllowed)
    }

    /// A comma followed by whitespace and a closing bracket, outside strings.
    static func hasTrailingComma(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var inString = false
        var escaped = false
        var afterComma = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true; afterComma = false
            case UInt8(ascii: ","): afterComma = true
            case UInt8(ascii: "]"), UInt8(ascii: "}"): if afterComma { return true }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): break
            default: afterComma = false
            }
        }
        return false
    }
}
