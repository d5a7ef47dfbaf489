/// A recursive-descent JSON parser over Unicode scalars that tracks line and column as it goes.
/// Errors point at the offending character, except an unterminated string, which points at its
/// opening quote because that is where the user has to look.
struct JSONParser {
    private let scalars: [Unicode.Scalar]
    private let path: String
    private let maximumDepth: Int
    private let repeatableKeyPrefix: String?

    private var index = 0
    private var line = 1
    private var column = 1

    init(text: String, path: String, maximumDepth: Int, repeatableKeyPrefix: String?) {
        var scalars = Array(text.unicodeScalars)
        // Some Windows editors start UTF-8 files with a byte-order mark; it is invisible, so it takes no column.
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        self.scalars = scalars
        self.path = path
        self.maximumDepth = maximumDepth
        self.repeatableKeyPrefix = repeatableKeyPrefix
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let root = try parseValue(depth: 1, context: "")
        skipWhitespace()
        if current != nil {
            throw failure("expected end of input after the top-level value, found \(describeToken())")
        }
        return root
    }

    // MARK: Values

    private mutating func parseValue(depth: Int, context: String) throws(JSONSyntaxError) -> JSONValue {
        let start = position
        guard let scalar = current else {
            throw failure("expected a value\(context), found end of input")
        }
        switch scalar {
        case "{": return try parseObject(depth: depth)
        case "[": return try parseArray(depth: depth)
        case "\"": return JSONValue(.string(try parseString()), at: start)
        case "-", "0"..."9": return JSONValue(.number(try parseNumber()), at: start)
        default:
            if isWordScalar(scalar) { return try parseLiteral(context: context) }
            throw failure("expected a value\(context), found \(describeToken())\(hint(forUnexpected: scalar))")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        let start = position
        try checkDepth(depth)
        advance()  // {
        var members: [JSONMember] = []
        var firstPositions: [String: SourcePosition] = [:]
        skipWhitespace()
        if current == "}" {
            advance()
            return JSONValue(.object([]), at: start)
        }
        var afterComma = false
        while true {
            skipWhitespace()
            guard current == "\"" else {
                if afterComma && current == "}" {
                    throw failure("expected a key after ',', found '}'; JSON does not allow a trailing comma")
                }
                let hint = current == "'" ? "; JSON keys need double quotes" : ""
                throw failure("expected a key in double quotes, found \(describeToken())\(hint)")
            }
            let keyPosition = position
            let key = try parseString()
            if let first = firstPositions[key] {
                if !isRepeatable(key) {
                    throw JSONSyntaxError(
                        path: path, position: keyPosition,
                        message: "duplicate key \"\(key)\" (first defined at \(first)); remove one of them"
                    )
                }
            } else {
                firstPositions[key] = keyPosition
            }
            skipWhitespace()
            guard current == ":" else {
                throw failure("expected ':' after key \"\(key)\", found \(describeToken())")
            }
            advance()
            skipWhitespace()
            let value = try parseValue(depth: depth + 1, context: " for key \"\(key)\"")
            members.append(JSONMember(key: key, keyPosition: keyPosition, value: value))
            let valueEnd = position
            skipWhitespace()
            switch current {
            case ",":
                advance()
                afterComma = true
            case "}":
                advance()
                return JSONValue(.object(members), at: start)
            default:
                throw failure(
                    "expected ',' or '}' after object member, found \(describeToken())"
                        + missingCommaHint(valueEnd: valueEnd)
                )
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        let start = position
        try checkDepth(depth)
        advance()  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == "]" {
            advance()
            return JSONValue(.array([]), at: start)
        }
        while true {
            skipWhitespace()
            if !elements.isEmpty && current == "]" {
                throw failure("expected a value after ',', found ']'; JSON does not allow a trailing comma")
            }
            elements.append(try parseValue(depth: depth + 1, context: ""))
            let valueEnd = position
            skipWhitespace()
            switch current {
            case ",":
                advance()
            case "]":
                advance()
                return JSONValue(.array(elements), at: start)
            default:
                throw failure(
                    "expected ',' or ']' after array element, found \(describeToken())"
                        + missingCommaHint(valueEnd: valueEnd)
                )
            }
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        advance()  // opening quote
        var result = String.UnicodeScalarView()
        while true {
            guard let scalar = current else {
                throw JSONSyntaxError(
                    path: path, position: start,
                    message: "unterminated string; expected a closing '\"' before the end of input"
                )
            }
            switch scalar {
            case "\"":
                advance()
                return String(result)
            case "\n", "\r":
                throw JSONSyntaxError(
                    path: path, position: start,
                    message: "unterminated string; expected a closing '\"' before the end of the line"
                )
            case "\\":
                result.append(try parseEscape())
            default:
                if scalar.value < 0x20 {
                    throw failure(
                        "unescaped \(describe(scalar)) in string; write it as \(escapeSpelling(for: scalar))"
                    )
                }
                result.append(scalar)
                advance()
            }
        }
    }

    /// Parses one escape sequence, starting at its backslash. `\u` escapes of UTF-16 surrogate pairs
    /// (how JSON spells characters beyond U+FFFF, such as emoji) are combined into one scalar.
    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let escapeStart = position
        advance()  // backslash
        guard let letter = current else {
            throw failure("expected an escaped character after '\\', found end of input")
        }
        let simple: Unicode.Scalar? = switch letter {
        case "\"": "\""
        case "\\": "\\"
        case "/": "/"
        case "b": "\u{08}"
        case "f": "\u{0C}"
        case "n": "\n"
        case "r": "\r"
        case "t": "\t"
        default: nil
        }
        if let simple {
            advance()
            return simple
        }
        guard letter == "u" else {
            throw JSONSyntaxError(
                path: path, position: escapeStart,
                message: "invalid escape '\\\(printable(letter))' in string; "
                    + "use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX"
            )
        }
        advance()
        let unit = try parseHexQuad()
        switch unit {
        case 0xD800...0xDBFF:
            guard current == "\\", peek(1) == "u" else {
                throw unpairedSurrogate(unit, at: escapeStart)
            }
            advance()
            advance()
            let low = try parseHexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw unpairedSurrogate(unit, at: escapeStart) }
            let combined = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            // Every value in 0x10000...0x10FFFF is a valid scalar, so this cannot fail.
            return Unicode.Scalar(combined) ?? "\u{FFFD}"
        case 0xDC00...0xDFFF:
            throw unpairedSurrogate(unit, at: escapeStart)
        default:
            return Unicode.Scalar(unit) ?? "\u{FFFD}"
        }
    }

    private mutating func parseHexQuad() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = current, let digit = hexDigitValue(scalar) else {
                throw failure("expected 4 hex digits after '\\u', found \(describeCharacter())")
            }
            value = value * 16 + digit
            advance()
        }
        return value
    }

    private func unpairedSurrogate(_ unit: UInt32, at position: SourcePosition) -> JSONSyntaxError {
        let hex = String(unit, radix: 16, uppercase: true)
        let advice = unit < 0xDC00
            ? "a high surrogate must be followed by a low one (\\uDC00-\\uDFFF)"
            : "a low surrogate must follow a high one (\\uD800-\\uDBFF)"
        return JSONSyntaxError(
            path: path, position: position, message: "unpaired UTF-16 surrogate '\\u\(hex)' in string; \(advice)"
        )
    }

    /// RFC 8259 numbers: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = position
        let startIndex = index
        if current == "-" { advance() }
        guard let first = current, isDigit(first) else {
            throw failure("expected a digit after '-', found \(describeCharacter())")
        }
        advance()
        if first == "0", let next = current, isDigit(next) {
            throw JSONSyntaxError(
                path: path, position: start,
                message: "leading zeros are not allowed in numbers, found \(describeToken(from: startIndex))"
            )
        }
        skipDigits()
        if current == "." {
            advance()
            try expectDigit(after: "'.'")
        }
        if current == "e" || current == "E" {
            advance()
            if current == "+" || current == "-" { advance() }
            try expectDigit(after: "the exponent")
        }
        let literal = String(String.UnicodeScalarView(scalars[startIndex..<index]))
        guard let number = JSONNumber(literal: literal) else {
            throw JSONSyntaxError(path: path, position: start, message: "number \(literal) is out of range")
        }
        return number
    }

    private mutating func expectDigit(after what: String) throws(JSONSyntaxError) {
        guard let scalar = current, isDigit(scalar) else {
            throw failure("expected a digit after \(what), found \(describeCharacter())")
        }
        skipDigits()
    }

    private mutating func skipDigits() {
        while let scalar = current, isDigit(scalar) { advance() }
    }

    /// `true`, `false` and `null`. The whole word is read first so that `tru` or `nulll` is reported
    /// as the word the user wrote, not as a complaint about its last letter.
    private mutating func parseLiteral(context: String) throws(JSONSyntaxError) -> JSONValue {
        let start = position
        let startIndex = index
        while let scalar = current, isWordScalar(scalar) { advance() }
        let word = String(String.UnicodeScalarView(scalars[startIndex..<index]))
        switch word {
        case "true": return JSONValue(.bool(true), at: start)
        case "false": return JSONValue(.bool(false), at: start)
        case "null": return JSONValue(.null, at: start)
        default:
            let hint: String
            if ["true", "false", "null"].contains(word.lowercased()) {
                hint = "; JSON literals are lower-case: \(word.lowercased())"
            } else if ["nan", "infinity", "inf"].contains(word.lowercased()) {
                hint = "; JSON has no NaN or Infinity"
            } else {
                hint = "; text values need double quotes: \"\(word)\""
            }
            throw JSONSyntaxError(
                path: path, position: start,
                message: "expected a value\(context) (an object, array, string, number, true, false or null), "
                    + "found '\(word)'\(hint)"
            )
        }
    }

    private func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
        if depth > maximumDepth {
            throw failure("arrays and objects are nested more than \(maximumDepth) levels deep")
        }
    }

    private func isRepeatable(_ key: String) -> Bool {
        guard let prefix = repeatableKeyPrefix else { return false }
        return key.hasPrefix(prefix)
    }

    // MARK: Scanning

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private var position: SourcePosition { SourcePosition(line: line, column: column) }

    private mutating func advance() {
        guard let scalar = current else { return }
        index += 1
        // "\r\n" is one line break; the "\r" is counted when the "\n" after it arrives.
        if scalar == "\n" || (scalar == "\r" && current != "\n") {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }

    private mutating func skipWhitespace() {
        while let scalar = current, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
            advance()
        }
    }

    private func failure(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(path: path, position: position, message: message)
    }

    /// When a value is followed on a later line by something other than ',' or a closing bracket,
    /// the comma at the end of the value's line is the likely culprit.
    /// A word glued to the end of a string (`["AAPL, "MSFT"]`) means a quote is missing or misplaced.
    private func missingCommaHint(valueEnd: SourcePosition) -> String {
        guard let scalar = current else { return "" }
        if line > valueEnd.line { return "; is a ',' missing at the end of line \(valueEnd.line)?" }
        if index > 0, scalars[index - 1] == "\"", isWordScalar(scalar) {
            return "; is a '\"' missing or misplaced in the string before it?"
        }
        return ""
    }

    private func hint(forUnexpected scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "/": "; JSON has no comments: use a key starting with \"//\" instead"
        case "'": "; JSON strings need double quotes"
        default: ""
        }
    }

    // MARK: Describing what was found

    /// The character at the current position, quoted, or a name for an invisible one.
    private func describeCharacter() -> String {
        guard let scalar = current else { return "end of input" }
        return describe(scalar)
    }

    /// Like `describeCharacter`, but a run of letters and digits is shown whole (`'yes'`, not `'y'`).
    private func describeToken(from start: Int? = nil) -> String {
        let first = start ?? index
        guard first < scalars.count else { return "end of input" }
        guard isWordScalar(scalars[first]) || isDigit(scalars[first]) else { return describe(scalars[first]) }
        var end = first
        while end < scalars.count, end - first < 24, isWordScalar(scalars[end]) || scalars[end] == "." {
            end += 1
        }
        return "'\(String(String.UnicodeScalarView(scalars[first..<end])))'"
    }

    private func describe(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n", "\r": "end of line"
        case "\t": "tab"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                "control character \(unicodeName(scalar))"
            } else {
                "'\(printable(scalar))'"
            }
        }
    }

    private func printable(_ scalar: Unicode.Scalar) -> String {
        scalar.value < 0x20 || scalar.value == 0x7F ? unicodeName(scalar) : String(scalar)
    }

    private func unicodeName(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private func escapeSpelling(for scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\t": "\\t"
        case "\u{08}": "\\b"
        case "\u{0C}": "\\f"
        default:
            "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                + String(scalar.value, radix: 16, uppercase: true)
        }
    }

    private func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    private func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || isDigit(scalar) || scalar == "_"
    }

    private func hexDigitValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 0x30
        case "a"..."f": scalar.value - 0x61 + 10
        case "A"..."F": scalar.value - 0x41 + 10
        default: nil
        }
    }
}
