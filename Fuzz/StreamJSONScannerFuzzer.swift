import Domain
import Foundation

/// Fuzzes `StreamJSONScanner` on its own, with every reader a decoder may call: the broker decoders use
/// only the paths their fields need, this walks any JSON with all of them, chosen per value by a small
/// generator seeded from the input's length and first byte.
///
/// Invariants: nothing traps or reads out of bounds; the scanner's index only moves forward and stays
/// within the input; a number it returns equals `Int64(token)` or `ExactDecimal(parsing: token)` (the
/// decimal fast path, digits times a power of ten, against the general reader of the grammar); an
/// escaped string it returns equals Foundation's reading of it; and strictly valid JSON (Foundation as
/// the oracle, see StreamDecoderFuzzing.strictJSON) is walked to its end without a failure.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    var walk = ScannerFuzzWalk(bytes: bytes, seed: UInt32(truncatingIfNeeded: size) << 8 | UInt32(bytes.first ?? 0))
    var scanner = StreamJSONScanner(bytes)
    do throws(StreamJSONScanner.Failure) {
        try walk.value(&scanner, depth: 0)
        guard scanner.isAtEnd else { throw StreamJSONScanner.Failure(offset: scanner.index, reason: "text after the value") }
    } catch {
        fuzzInvariant(error.offset >= 0 && error.offset <= bytes.count, "failure offset \(error.offset) outside \(bytes.count) bytes")
        fuzzInvariant(
            StreamDecoderFuzzing.strictJSON(bytes) == nil,
            "threw \(error) on valid JSON \(String(decoding: bytes, as: UTF8.self).debugDescription)")
    }
    return 0
}

struct ScannerFuzzWalk {
    let bytes: UnsafeBufferPointer<UInt8>
    var state: UInt32

    init(bytes: UnsafeBufferPointer<UInt8>, seed: UInt32) {
        self.bytes = bytes
        state = seed | 1
    }

    private mutating func choice(_ count: UInt32) -> UInt32 {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        return state % count
    }

    /// Reads the next value with a reader picked for it, then checks the index.
    mutating func value(_ scanner: inout StreamJSONScanner, depth: Int) throws(StreamJSONScanner.Failure) {
        let before = scanner.index
        defer {
            fuzzInvariant(scanner.index >= before && scanner.index <= bytes.count, "index moved from \(before) to \(scanner.index) of \(bytes.count)")
        }
        guard depth < 200, choice(8) != 0 else {
            try scanner.skipValue()
            return
        }
        switch scanner.peek() ?? 0 {
        case UInt8(ascii: "{"):
            try scanner.object { (scanner: inout StreamJSONScanner, _: StreamJSONScanner.Name) throws(StreamJSONScanner.Failure) in
                try self.value(&scanner, depth: depth + 1)
            }
        case UInt8(ascii: "["):
            if choice(4) == 0 {
                _ = try scanner.strings()
            } else {
                try scanner.array { (scanner: inout StreamJSONScanner) throws(StreamJSONScanner.Failure) in
                    try self.value(&scanner, depth: depth + 1)
                }
            }
        case UInt8(ascii: "\""):
            if choice(3) == 0 {
                _ = try scanner.name()
            } else {
                try string(&scanner)
            }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number(&scanner, asInteger: choice(2) == 0)
        default:
            // Literals, and readers of one type meeting another: they must skip it.
            switch choice(4) {
            case 0: _ = try scanner.exactDecimal()
            case 1: _ = try scanner.string()
            case 2: _ = try scanner.int64()
            default: try scanner.skipValue()
            }
        }
    }

    private func string(_ scanner: inout StreamJSONScanner) throws(StreamJSONScanner.Failure) {
        _ = scanner.peek()
        let start = scanner.index
        guard let text = try scanner.string() else { return }
        let literal = UnsafeBufferPointer(rebasing: bytes[start..<scanner.index])
        guard literal.contains(UInt8(ascii: "\\")),
              let parsed = try? JSONSerialization.jsonObject(with: Data(buffer: literal), options: .fragmentsAllowed) as? String
        else { return }
        fuzzInvariant(
            Array(text.utf8) == Array(parsed.utf8),
            "string \(String(decoding: literal, as: UTF8.self).debugDescription) read as \(text.debugDescription), Foundation says \(parsed.debugDescription)")
    }

    private func number(_ scanner: inout StreamJSONScanner, asInteger: Bool) throws(StreamJSONScanner.Failure) {
        _ = scanner.peek()
        let start = scanner.index
        if asInteger {
            guard let value = try scanner.int64() else { return }
            let token = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<scanner.index]), as: UTF8.self)
            fuzzInvariant(Int64(token) == value, "integer \(token) read as \(value)")
        } else {
            let value = try scanner.exactDecimal()
            let token = UnsafeBufferPointer(rebasing: bytes[start..<scanner.index])
            let text = String(decoding: token, as: UTF8.self)
            if let expected = ExactDecimal(parsing: text) {
                fuzzInvariant(value == expected, "number \(text) read as \(String(describing: value)), ExactDecimal(parsing:) says \(expected)")
            } else {
                // The scanner is lenient about leading zeros (`01` reads as 1); the grammar is not.
                fuzzInvariant(value == nil || Self.hasLeadingZero(token), "number \(text) read as \(String(describing: value)), ExactDecimal(parsing:) refuses it")
            }
        }
    }

    /// `0` followed by another digit at the start of the integer part.
    private static func hasLeadingZero(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        let digits = token.first == UInt8(ascii: "-") ? UnsafeBufferPointer(rebasing: token.dropFirst()) : token
        return digits.count > 1 && digits[0] == UInt8(ascii: "0") && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digits[1])
    }
}
