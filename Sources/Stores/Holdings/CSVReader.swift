import Foundation

/// Splits CSV text into records, as RFC 4180 writes them:
/// - values are separated by commas, records by line breaks: CRLF, LF, or a lone CR (old Mac exports);
/// - a value may be quoted with `"`; inside quotes, commas and line breaks are text and `""` is one quote;
/// - a quote inside an unquoted value, or text after a closing quote, is an error (the RFC forbids both,
///   and both mean the value is not what the writer meant);
/// - the text must be UTF-8; a UTF-8 byte order mark at the start is skipped; a UTF-16 file is refused
///   by name, since spreadsheets offer it as "Unicode text";
/// - a line with nothing on it, or only spaces and tabs, is no record; a final line break is optional.
/// Values keep their spaces: what they mean is the caller's to decide.
///
/// Every error is reported where it is, and reading goes on (a stray quote does not hide the next row's
/// error), except after an unclosed quote or a byte that is not UTF-8, after which nothing can be trusted.
struct CSVReader {
    private let bytes: [UInt8]
    private let file: String
    private var offset = 0
    private var line = 1
    private var column = 1
    /// Set by an error after which reading stops.
    private var stopped = false
    private var records: [CSVRecord] = []
    private var errors: [LotsFileError] = []

    /// The records of `data` and the errors met, both in file order. `file` names the file in errors.
    static func read(_ data: Data, file: String) -> (records: [CSVRecord], errors: [LotsFileError]) {
        var reader = CSVReader(bytes: Array(data), file: file)
        reader.readAll()
        return (reader.records, reader.errors)
    }

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    private static let quote: Unicode.Scalar = "\"", comma: Unicode.Scalar = ","
    private static let carriageReturn: Unicode.Scalar = "\r", lineFeed: Unicode.Scalar = "\n"

    private enum Terminator {
        case comma, lineBreak, end
    }

    private var position: TextPosition { TextPosition(line: line, column: column) }

    private mutating func readAll() {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            fail(at: position, "the file is UTF-16 text, not UTF-8", found: nil,
                 fix: "save it as UTF-8 (in a spreadsheet: CSV UTF-8) and import it again")
            return
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
        while !stopped, offset < bytes.count {
            readRecord()
        }
    }

    private mutating func readRecord() {
        var fields: [CSVField] = []
        var terminator = Terminator.comma
        var end = position
        while terminator == .comma, !stopped {
            let (read, ended) = readField()
            terminator = ended
            end = read.end
            fields.append(read.value)
        }
        if stopped { return }
        let blank = fields.count == 1 && !fields[0].isQuoted && fields[0].text.allSatisfy { $0 == " " || $0 == "\t" }
        if !blank {
            records.append(CSVRecord(fields: fields, end: end))
        }
    }

    /// One value and what ended it; `end` is the position just after the value's last character.
    private mutating func readField() -> ((value: CSVField, end: TextPosition), Terminator) {
        let start = position
        var text = String.UnicodeScalarView()
        if peek() == Self.quote {
            _ = next()
            while true {
                guard let scalar = next() else {
                    if !stopped {
                        fail(at: start, "a quoted value is never closed", found: nil,
                             fix: "end the value with a quote, and write a quote inside it as two (\"\")")
                    }
                    return ((CSVField(text: String(text), isQuoted: true, position: start), position), .end)
                }
                if scalar == Self.quote {
                    if peek() == Self.quote {
                        _ = next()
                        text.append(Self.quote)
                    } else {
                        break
                    }
                } else {
                    text.append(scalar)
                }
            }
            let afterQuote = position
            var trailing = String.UnicodeScalarView()
            let terminator = readUnquoted(into: &trailing)
            if !trailing.isEmpty {
                error(at: afterQuote, "text after the closing quote of a value", found: String(trailing),
                      fix: "put the whole value in quotes, and write a quote inside it as two (\"\")")
                text.append(contentsOf: trailing)
            }
            return ((CSVField(text: String(text), isQuoted: true, position: start), afterQuote), terminator)
        }
        var quoteAt: TextPosition?
        let terminator = readUnquoted(into: &text, quoteAt: &quoteAt)
        if let quoteAt {
            error(at: quoteAt, "a quote inside a value that does not start with one", found: String(text),
                  fix: "put the whole value in quotes, and write a quote inside it as two (\"\")")
        }
        var end = start
        end.column += text.count
        return ((CSVField(text: String(text), isQuoted: false, position: start), end), terminator)
    }

    private mutating func readUnquoted(into text: inout String.UnicodeScalarView) -> Terminator {
        var quoteAt: TextPosition?
        return readUnquoted(into: &text, quoteAt: &quoteAt)
    }

    /// Reads up to the next comma, line break or the end, which it consumes and returns.
    private mutating func readUnquoted(into text: inout String.UnicodeScalarView, quoteAt: inout TextPosition?) -> Terminator {
        while true {
            let here = position
            guard let scalar = next() else { return .end }
            switch scalar {
            case Self.comma:
                return .comma
            case Self.lineFeed:
                return .lineBreak
            case Self.carriageReturn:
                if peek() == Self.lineFeed { _ = next() }
                return .lineBreak
            case Self.quote:
                if quoteAt == nil { quoteAt = here }
                text.append(scalar)
            default:
                text.append(scalar)
            }
        }
    }

    /// The next scalar without consuming it; nil at the end or before a byte that is not UTF-8.
    private func peek() -> Unicode.Scalar? {
        decode(at: offset)?.scalar
    }

    /// Consumes the next scalar and moves the position past it. Nil at the end, or at a byte that is not
    /// UTF-8, which is reported once and stops the reading.
    private mutating func next() -> Unicode.Scalar? {
        guard !stopped, offset < bytes.count else { return nil }
        guard let (scalar, length) = decode(at: offset) else {
            fail(at: position, "the file is not UTF-8 text", found: "byte 0x" + String(bytes[offset], radix: 16, uppercase: true),
                 fix: "save it as UTF-8 (in a spreadsheet: CSV UTF-8) and import it again")
            return nil
        }
        offset += length
        // A CR followed by LF is one line break, counted at the LF.
        let endsLine = scalar == Self.lineFeed || (scalar == Self.carriageReturn && (offset >= bytes.count || bytes[offset] != 0x0A))
        if endsLine {
            line += 1
            column = 1
        } else {
            column += 1
        }
        return scalar
    }

    /// The scalar whose UTF-8 encoding starts at `index`, and its length; nil at the end or for bytes that
    /// are not well-formed UTF-8 (Unicode 15 table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
    private func decode(at index: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        guard index < bytes.count else { return nil }
        let first = bytes[index]
        if first < 0x80 { return (Unicode.Scalar(first), 1) }
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: return nil
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { return nil }
        var value = UInt32(first) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for continuation in bytes[(index + 1)..<(index + length)] {
            guard (0x80...0xBF).contains(continuation) else { return nil }
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    private mutating func error(at position: TextPosition, _ problem: String, found: String?, fix: String) {
        errors.append(LotsFileError(file: file, position: position, problem: problem, found: found, fix: fix))
    }

    private mutating func fail(at position: TextPosition, _ problem: String, found: String?, fix: String) {
        error(at: position, problem, found: found, fix: fix)
        stopped = true
    }
}
