import Foundation

/// Byte-level JSON reading for `RecordDecoder`: finds where values end and reads strings, numbers and
/// literals in place, with no intermediate tree. A span is a half-open byte range `[start, end)` that
/// starts at a value's first byte and ends just past its last.
///
/// It reads what JSONEncoder writes and whatever else is valid JSON, but it does not validate values it
/// only skips: a record reaches it after its checksum has proved the bytes are the ones the writer
/// produced, and anything it cannot read makes `RecordDecoding` ask JSONDecoder instead.
struct RecordScanner {
    let base: UnsafePointer<UInt8>

    init(_ bytes: JournalBytes) {
        base = UnsafePointer(bytes.base)
    }

    /// One member of an object: where its name and its value are.
    struct Entry {
        var keyStart: Int
        var keyEnd: Int
        var keyHasEscapes: Bool
        var valueStart: Int
        var valueEnd: Int
    }

    struct Span {
        var start: Int
        var end: Int
    }

    // MARK: Structure

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    func skipWhitespace(_ index: Int, _ end: Int) -> Int {
        var index = index
        while index < end, Self.isWhitespace(base[index]) { index += 1 }
        return index
    }

    /// The end of the value that starts at `index`.
    func valueEnd(_ index: Int, _ limit: Int) throws -> Int {
        guard index < limit else { throw Self.malformed("a value is missing", at: index) }
        switch base[index] {
        case UInt8(ascii: "\""):
            return try stringEnd(index, limit).end
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return try containerEnd(index, limit)
        case UInt8(ascii: "t"):
            return try literalEnd(index, limit, "true")
        case UInt8(ascii: "f"):
            return try literalEnd(index, limit, "false")
        case UInt8(ascii: "n"):
            return try literalEnd(index, limit, "null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            var end = index + 1
            while end < limit, Self.isNumberByte(base[end]) { end += 1 }
            return end
        default:
            throw Self.malformed("unexpected character", at: index)
        }
    }

    /// The end of the string whose opening quote is at `index`, and whether it holds escapes.
    func stringEnd(_ index: Int, _ limit: Int) throws -> (end: Int, hasEscapes: Bool) {
        let (closingQuote, hasEscapes) = try quoteEnd(index + 1, limit)
        return (closingQuote + 1, hasEscapes)
    }

    /// Skips a whole object or array by counting brackets outside strings.
    private func containerEnd(_ index: Int, _ limit: Int) throws -> Int {
        var depth = 0
        var cursor = index
        while cursor < limit {
            switch base[cursor] {
            case UInt8(ascii: "\""):
                cursor = try stringEnd(cursor, limit).end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return cursor + 1 }
            default:
                break
            }
            cursor += 1
        }
        throw Self.malformed("unclosed object or array", at: index)
    }

    private func literalEnd(_ index: Int, _ limit: Int, _ literal: StaticString) throws -> Int {
        let count = literal.utf8CodeUnitCount
        guard limit - index >= count, memcmp(base + index, literal.utf8Start, count) == 0 else {
            throw Self.malformed("unexpected character", at: index)
        }
        return index + count
    }

    /// The members of the object spanning `span`, in file order. The loop reads names and string
    /// values inline, and takes the no-whitespace layout JSONEncoder writes as the fast path: this runs
    /// once for every object of every record in a replay.
    func objectEntries(_ span: Span) throws -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(16)
        let end = span.end
        var cursor = skipWhitespace(span.start + 1, end)
        if cursor < end, base[cursor] == UInt8(ascii: "}") { return entries }
        while cursor < end {
            guard base[cursor] == UInt8(ascii: "\"") else { throw Self.malformed("expected a member name", at: cursor) }
            let keyStart = cursor + 1
            let (keyEnd, keyHasEscapes) = try quoteEnd(keyStart, end)
            cursor = keyEnd + 1
            if cursor < end, base[cursor] != UInt8(ascii: ":") { cursor = skipWhitespace(cursor, end) }
            guard cursor < end, base[cursor] == UInt8(ascii: ":") else { throw Self.malformed("expected ':'", at: cursor) }
            cursor += 1
            if cursor < end, Self.isWhitespace(base[cursor]) { cursor = skipWhitespace(cursor, end) }
            let valueStart = cursor
            let valueEnd: Int
            if cursor < end, base[cursor] == UInt8(ascii: "\"") {
                valueEnd = try stringEnd(cursor, end).end
            } else {
                valueEnd = try self.valueEnd(cursor, end)
            }
            entries.append(Entry(keyStart: keyStart, keyEnd: keyEnd, keyHasEscapes: keyHasEscapes,
                                 valueStart: valueStart, valueEnd: valueEnd))
            cursor = valueEnd
            if cursor < end, Self.isWhitespace(base[cursor]) { cursor = skipWhitespace(cursor, end) }
            guard cursor < end else { break }
            if base[cursor] == UInt8(ascii: "}") { return entries }
            guard base[cursor] == UInt8(ascii: ",") else { throw Self.malformed("expected ',' or '}'", at: cursor) }
            cursor = skipWhitespace(cursor + 1, end)
        }
        throw Self.malformed("unclosed object", at: span.start)
    }

    /// The index of the quote that closes the string whose content starts at `start`.
    private func quoteEnd(_ start: Int, _ limit: Int) throws -> (end: Int, hasEscapes: Bool) {
        var cursor = start
        var hasEscapes = false
        while cursor < limit {
            let byte = base[cursor]
            if byte == UInt8(ascii: "\"") { return (cursor, hasEscapes) }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                cursor += 2
            } else {
                cursor += 1
            }
        }
        throw Self.malformed("unterminated string", at: start)
    }

    /// The elements of the array spanning `span`.
    func arrayElements(_ span: Span) throws -> [Span] {
        var elements: [Span] = []
        var cursor = skipWhitespace(span.start + 1, span.end)
        if cursor < span.end, base[cursor] == UInt8(ascii: "]") { return elements }
        while cursor < span.end {
            let end = try valueEnd(cursor, span.end)
            elements.append(Span(start: cursor, end: end))
            cursor = skipWhitespace(end, span.end)
            guard cursor < span.end else { break }
            if base[cursor] == UInt8(ascii: "]") { return elements }
            guard base[cursor] == UInt8(ascii: ",") else { throw Self.malformed("expected ',' or ']'", at: cursor) }
            cursor = skipWhitespace(cursor + 1, span.end)
        }
        throw Self.malformed("unclosed array", at: span.start)
    }

    // MARK: Values

    func isNull(_ span: Span) -> Bool {
        span.end - span.start == 4 && base[span.start] == UInt8(ascii: "n")
    }

    func first(_ span: Span) -> UInt8 { base[span.start] }

    /// Whether the member name at `entry` is `name`. A name written with escapes (JSONEncoder writes
    /// them only for quotes, backslashes and control characters) is unescaped first.
    func keyEquals(_ entry: Entry, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        if entry.keyHasEscapes {
            return (try? unescaped(entry.keyStart, entry.keyEnd))?.utf8.elementsEqual(name) ?? false
        }
        guard entry.keyEnd - entry.keyStart == name.count else { return false }
        guard name.count > 0, let first = name.baseAddress else { return true }
        // The first byte settles most mismatches without a call to memcmp.
        return base[entry.keyStart] == first.pointee && memcmp(base + entry.keyStart, first, name.count) == 0
    }

    func key(_ entry: Entry) throws -> String {
        entry.keyHasEscapes ? try unescaped(entry.keyStart, entry.keyEnd) : text(entry.keyStart, entry.keyEnd)
    }

    func string(_ span: Span) throws -> String? {
        guard base[span.start] == UInt8(ascii: "\"") else { return nil }
        let contentStart = span.start + 1
        let contentEnd = span.end - 1
        var cursor = contentStart
        while cursor < contentEnd {
            if base[cursor] == UInt8(ascii: "\\") { return try unescaped(contentStart, contentEnd) }
            cursor += 1
        }
        return text(contentStart, contentEnd)
    }

    func bool(_ span: Span) -> Bool? {
        switch base[span.start] {
        case UInt8(ascii: "t"): true
        case UInt8(ascii: "f"): false
        default: nil
        }
    }

    /// An integer written without fraction or exponent that fits `Integer`; nil otherwise (JSONDecoder
    /// then decides, e.g. for `1.0` or `1e3`).
    func integer<Integer: FixedWidthInteger>(_ span: Span, as: Integer.Type) -> Integer? {
        var cursor = span.start
        let negative = base[cursor] == UInt8(ascii: "-")
        if negative { cursor += 1 }
        guard cursor < span.end else { return nil }
        var value: Integer = 0
        while cursor < span.end {
            let digit = base[cursor] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflowMultiplying) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdding) = negative
                ? shifted.subtractingReportingOverflow(Integer(digit))
                : shifted.addingReportingOverflow(Integer(digit))
            guard !overflowMultiplying, !overflowAdding else { return nil }
            value = next
            cursor += 1
        }
        return value
    }

    /// The text of a number, for the parsers of `Double`, `Float` and `Decimal` (locale independent).
    func numberText(_ span: Span) -> String? {
        let first = base[span.start]
        guard first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else { return nil }
        return text(span.start, span.end)
    }

    func double(_ span: Span) -> Double? {
        if let value = exactDouble(span) { return value }
        guard let text = numberText(span), let value = Double(text), value.isFinite, value != 0 || isPlainZero(span) else { return nil }
        return value
    }

    /// Whether a number is written as a plain zero (`0`, `-0.00`). Any other that reads as zero is digits
    /// too small for the type (`1e-400`) or a zero with an exponent (`0e5`), which JSONDecoder refuses as
    /// not fitting: the fast path leaves those to it.
    private func isPlainZero(_ span: Span) -> Bool {
        (span.start..<span.end).allSatisfy { base[$0] == UInt8(ascii: "0") || base[$0] == UInt8(ascii: "-") || base[$0] == UInt8(ascii: ".") }
    }

    /// Clinger's fast path, for the common number such as a `Date`'s `816307200.25`: when the digits
    /// make an integer of at most 2^53 and there are at most 22 of them after the point, both that
    /// integer and the power of ten are exact doubles, so one IEEE division rounds correctly, exactly
    /// as `Double(String)` would. Anything else (an exponent, more digits) goes to `Double(String)`.
    private func exactDouble(_ span: Span) -> Double? {
        var cursor = span.start
        let negative = base[cursor] == UInt8(ascii: "-")
        if negative { cursor += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        while cursor < span.end {
            let byte = base[cursor]
            if byte == UInt8(ascii: "."), !inFraction, digits > 0 {
                inFraction = true
            } else {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10, digits < 19 else { return nil }
                mantissa = mantissa * 10 + UInt64(digit)
                digits += 1
                if inFraction { fractionDigits += 1 }
            }
            cursor += 1
        }
        guard digits > 0, mantissa <= 1 << 53, fractionDigits < Self.powersOfTen.count,
              !inFraction || fractionDigits > 0 else { return nil }
        let value = Double(mantissa) / Self.powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// 1e0 … 1e22, the powers of ten a double holds exactly.
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    func float(_ span: Span) -> Float? {
        guard let text = numberText(span), let value = Float(text), value.isFinite, value != 0 || isPlainZero(span) else { return nil }
        return value
    }

    // MARK: Text

    /// Invalid UTF-8 would be repaired (U+FFFD) where JSONDecoder refuses it, but a record reaches here
    /// only with its checksum intact, i.e. as JSONEncoder wrote it, in valid UTF-8. (`String(validating:)`
    /// would instantiate generic metadata on every call, a third of a record's decoding time.)
    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
    }

    /// The string between `start` and `end` (inside the quotes) with its escapes resolved.
    private func unescaped(_ start: Int, _ end: Int) throws -> String {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var cursor = start
        while cursor < end {
            let byte = base[cursor]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                cursor += 1
                continue
            }
            guard cursor + 1 < end else { throw Self.malformed("a lone backslash", at: cursor) }
            let escape = base[cursor + 1]
            cursor += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(cursor, end)
                cursor += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard cursor + 6 <= end, base[cursor] == UInt8(ascii: "\\"), base[cursor + 1] == UInt8(ascii: "u") else {
                        throw Self.malformed("a lone surrogate", at: cursor)
                    }
                    let low = try hex4(cursor + 2, end)
                    guard (0xDC00...0xDFFF).contains(low) else { throw Self.malformed("a lone surrogate", at: cursor) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    cursor += 6
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw Self.malformed("a lone surrogate", at: cursor) }
                out.append(contentsOf: UTF8.encode(unicode)!)
            default:
                throw Self.malformed("an unknown escape", at: cursor - 2)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func hex4(_ index: Int, _ end: Int) throws -> UInt32 {
        guard index + 4 <= end else { throw Self.malformed("a short \\u escape", at: index) }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = base[index + offset]
            let digit: UInt8 = switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: throw Self.malformed("a bad \\u escape", at: index)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
             UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }

    static func malformed(_ what: String, at offset: Int) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "\(what) at byte \(offset)"))
    }
}
