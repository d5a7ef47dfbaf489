import Foundation

/// Fuzzes `ExactDecimal(parsing:)`, which every decimal from outside goes through: lots files, the config's
/// money, the order ticket's fields, brokers' JSON, the paper ledger. The input is the text.
///
/// Invariants, besides "never traps":
/// - it agrees with a reference written here the slow, plain way (digits as text, rounding by hand): the
///   grammar is a JSON number's, the value is rounded half to even to 8 decimals, and anything beyond
///   ±90,000,000,000 after rounding is refused;
/// - where Foundation can hold the text as written (38 digits, a small exponent), `Decimal(string:)` reads
///   the same value, rounded to 8 decimals by `NSDecimalRound` (bankers') where it has more;
/// - a `String` and a `Substring` of the same text read the same;
/// - `description` is the plain canonical text (no trailing fraction zeros, no `-0`) and reads back to
///   the same value; `rounded(toScale:rule:)` stays in range and `formatted(fractionDigits:)` reads back
///   to it;
/// - `Codable`: the text as a JSON string decodes to the same value, and, as a JSON number that
///   `Decimal` holds as written, to the same value too (through `Decimal`, as Tradier's numbers do).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    DecimalFuzzRun.check(String(decoding: fuzzInput(data, size), as: UTF8.self))
    return 0
}

enum DecimalFuzzRun {
    static let posix = Locale(identifier: "en_US_POSIX")

    static func check(_ text: String) {
        let parsed = ExactDecimal(parsing: text)
        let reference = ReferenceDecimal(Array(text.utf8))
        fuzzInvariant(parsed?.units == reference.units, "\(text.debugDescription) parsed as \(String(describing: parsed?.units)) units, reference \(reference)")
        // After a line feed, which no character joins (Unicode's grapheme rule GB4), so `dropFirst` drops it alone.
        fuzzInvariant(ExactDecimal(parsing: ("\n" + text).dropFirst()) == parsed, "a Substring of \(text.debugDescription) read differently")
        checkFoundation(text, parsed: parsed, reference: reference)
        checkCodable(text, parsed: parsed, reference: reference)
        guard let parsed else { return }

        let description = parsed.description
        fuzzInvariant(isCanonical(description), "description \(description.debugDescription) of \(text.debugDescription) is not canonical")
        fuzzInvariant(ExactDecimal(parsing: description) == parsed, "description \(description) does not read back to \(parsed.units) units")
        let scale = Int(text.utf8.first ?? 0) % 9
        for rule in [FloatingPointRoundingRule.toNearestOrEven, .toNearestOrAwayFromZero, .up, .down, .towardZero, .awayFromZero] {
            let rounded = parsed.rounded(toScale: scale, rule: rule)
            let step = Int64(pow(10, Double(8 - scale)))
            fuzzInvariant(rounded.units % step == 0 && abs(rounded.units - parsed.units) < step,
                          "\(parsed) rounded to \(scale) decimals by \(rule) is \(rounded)")
            let formatted = parsed.formatted(fractionDigits: scale, rule: rule)
            fuzzInvariant(ExactDecimal(parsing: formatted) == rounded, "\(parsed) formatted to \(scale) decimals is \(formatted), not \(rounded)")
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?`, and not `-0`.
    static func isCanonical(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "-" { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard text != "-0", (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty,
              whole.allSatisfy(\.isASCIIDigit), whole == "0" || whole.first != "0" else { return false }
        guard parts.count == 2 else { return true }
        let fraction = parts[1]
        return (1...8).contains(fraction.count) && fraction.allSatisfy(\.isASCIIDigit) && fraction.last != "0"
    }

    static func checkFoundation(_ text: String, parsed: ExactDecimal?, reference: ReferenceDecimal) {
        guard reference.fitsFoundationDecimal, let foundation = Decimal(string: text, locale: posix) else { return }
        if reference.isExact {
            guard let parsed else { return }
            let expected = Decimal(sign: parsed.isNegative ? .minus : .plus, exponent: -8, significand: Decimal(parsed.units.magnitude))
            fuzzInvariant(foundation == expected, "\(text.debugDescription): Decimal reads \(foundation), ExactDecimal \(parsed)")
        } else {
            var value = foundation
            var rounded = Decimal()
            NSDecimalRound(&rounded, &value, 8, .bankers)
            let limit = Decimal(string: "90000000000")!
            let inRange = rounded.magnitude <= limit
            fuzzInvariant(inRange == (parsed != nil), "\(text.debugDescription): Decimal rounds to \(rounded), ExactDecimal \(String(describing: parsed))")
            if let parsed {
                let expected = Decimal(sign: parsed.isNegative ? .minus : .plus, exponent: -8, significand: Decimal(parsed.units.magnitude))
                fuzzInvariant(rounded == expected, "\(text.debugDescription): Decimal rounds to \(rounded), ExactDecimal \(parsed)")
            }
        }
    }

    static func checkCodable(_ text: String, parsed: ExactDecimal?, reference: ReferenceDecimal) {
        if !text.unicodeScalars.contains(where: { $0 == "\"" || $0 == "\\" || $0.value < 0x20 }) {
            let decoded = try? JSONDecoder().decode([ExactDecimal].self, from: Data("[\"\(text)\"]".utf8))
            fuzzInvariant(decoded?.first == parsed, "\(text.debugDescription) as a JSON string decodes as \(String(describing: decoded))")
        }
        guard reference.fitsFoundationDecimal else { return }
        let decoded = try? JSONDecoder().decode([ExactDecimal].self, from: Data("[\(text)]".utf8))
        fuzzInvariant(decoded?.first == parsed, "\(text.debugDescription) as a JSON number decodes as \(String(describing: decoded)), parsed as \(String(describing: parsed))")
    }
}

/// A decimal's text read the plain way: digits kept as text, the exponent applied by counting, rounding
/// half to even by looking at the dropped digits.
struct ReferenceDecimal: CustomStringConvertible {
    /// The text is a JSON number (RFC 8259 §6).
    private(set) var isNumber = false
    private(set) var negative = false
    /// The digits without leading or trailing zeros; the value is ±digits × 10^pointExponent.
    private(set) var digits: [UInt8] = []
    private(set) var pointExponent = 0
    /// Units of 10⁻⁸ (signed), or nil when not a number or out of range.
    private(set) var units: Int64?
    /// No digit below 10⁻⁸.
    private(set) var isExact = true

    /// The digits and the exponent as written.
    private var writtenDigits = 0
    private var writtenExponent = 0

    /// Within what `Foundation.Decimal` holds as written (38 digits, an exponent far from its ±128), so
    /// that it can serve as a second reference.
    var fitsFoundationDecimal: Bool { isNumber && writtenDigits <= 38 && abs(writtenExponent) <= 60 }

    init(_ bytes: [UInt8]) {
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        var index = 0
        negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        let integer = bytes[integerStart..<index]
        guard !integer.isEmpty, integer.count == 1 || integer.first != UInt8(ascii: "0") else { return }
        var fraction: ArraySlice<UInt8> = []
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            fraction = bytes[start..<index]
            guard !fraction.isEmpty else { return }
        }
        var exponent = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let start = index
            while index < bytes.count, isDigit(bytes[index]) {
                // Far beyond any input's length, so saturating changes no verdict.
                exponent = min(exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")), 1_000_000_000)
                index += 1
            }
            guard index > start else { return }
            if exponentNegative { exponent = -exponent }
        }
        guard index == bytes.count else { return }
        isNumber = true
        writtenDigits = integer.count + fraction.count
        writtenExponent = exponent

        var all = Array(integer) + Array(fraction)
        pointExponent = exponent - fraction.count
        while all.last == UInt8(ascii: "0") {
            all.removeLast()
            pointExponent += 1
        }
        digits = Array(all.drop { $0 == UInt8(ascii: "0") })
        guard !digits.isEmpty else {
            pointExponent = 0
            units = 0
            return
        }
        let shift = pointExponent + 8
        var magnitude: UInt64
        if shift >= 0 {
            guard digits.count + shift <= 19 else { return }
            magnitude = UInt64(String(decoding: digits + Array(repeating: UInt8(ascii: "0"), count: shift), as: UTF8.self))!
        } else {
            isExact = false
            let dropped = -shift
            if dropped > digits.count {
                magnitude = 0
            } else {
                let kept = digits.dropLast(dropped)
                guard kept.count <= 19 else { return }
                magnitude = kept.isEmpty ? 0 : UInt64(String(decoding: kept, as: UTF8.self))!
                let rest = digits.suffix(dropped)
                let first = rest.first!
                // `digits` ends in a nonzero digit, so anything after the first dropped digit is above zero.
                let beyondHalf = rest.count > 1
                if first > UInt8(ascii: "5") || (first == UInt8(ascii: "5") && (beyondHalf || magnitude % 2 == 1)) {
                    magnitude += 1
                }
            }
        }
        guard magnitude <= 9_000_000_000_000_000_000 else { return }
        units = negative ? -Int64(magnitude) : Int64(magnitude)
    }

    var description: String {
        isNumber ? "\(negative ? "-" : "")\(String(decoding: digits, as: UTF8.self))e\(pointExponent) = \(units.map { "\($0) units" } ?? "out of range")" : "not a number"
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
