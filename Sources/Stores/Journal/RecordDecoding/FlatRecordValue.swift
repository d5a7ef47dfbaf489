/// One value of a flat record (`FlatRecordReader`): a string's text between its quotes (printable ASCII,
/// no escapes, so the bytes are the text), a number's JSON text, or the word `true`, `false` or `null`.
/// Points into the record's bytes and is valid only while those are.
public struct FlatRecordValue {
    public enum Kind: Sendable, Hashable {
        case string, number, `true`, `false`, null
    }

    public let kind: Kind
    public let bytes: UnsafeRawBufferPointer

    @inlinable
    init(kind: Kind, bytes: UnsafeRawBufferPointer) {
        self.kind = kind
        self.bytes = bytes
    }

    /// The text of a string value; nil for any other kind.
    @inlinable
    public var string: String? {
        guard kind == .string else { return nil }
        // Printable ASCII only (the reader checked), so nothing here is repaired or changed.
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether this is a string value whose text is `literal`.
    @inlinable
    public func isString(_ literal: StaticString) -> Bool {
        kind == .string && Self.bytes(bytes, equal: literal)
    }

    /// The number as JSONDecoder reads a `Double` (the nearest double, rounded once); nil for any other
    /// kind, and for a number whose magnitude is beyond a double's range or so small it would read as
    /// zero (left to Codable, which has its own rules for those).
    @inlinable
    public var double: Double? {
        guard kind == .number else { return nil }
        if let exact = exactDouble { return exact }
        // Swift's parser rounds correctly, as JSONDecoder's does: both give the nearest double.
        guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        // A nonzero number that rounds to zero underflowed: JSONDecoder's to judge.
        if value == 0, Self.mantissaHasNonzeroDigit(bytes) { return nil }
        return value
    }

    /// Clinger's fast path, for the common number such as a `Date`'s `816307200.25`: when the digits
    /// without the point make an integer of at most 2^53 and at most 22 of them follow the point, both
    /// that integer and the power of ten are exact doubles, so one IEEE division rounds correctly,
    /// giving the nearest double as any correct parser does. Anything else (an exponent, more digits)
    /// takes the general parser.
    @inlinable
    var exactDouble: Double? {
        var index = 0
        let count = bytes.count
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else {
                let digit = byte &- UInt8(ascii: "0")
                // An exponent, or more digits than an UInt64 surely holds.
                guard digit < 10, digits < 19 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                digits += 1
                if inFraction { fractionDigits += 1 }
            }
            index += 1
        }
        guard mantissa <= 1 << 53, fractionDigits < Self.powersOfTen.count else { return nil }
        let value = Double(mantissa) / Self.powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// 1e0 … 1e22, the powers of ten a double holds exactly.
    @usableFromInline
    static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    @usableFromInline
    static func mantissaHasNonzeroDigit(_ number: UnsafeRawBufferPointer) -> Bool {
        for byte in number {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return false }
            if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return true }
        }
        return false
    }

    /// Whether `bytes` are exactly `literal`'s UTF-8.
    @inlinable
    public static func bytes(_ bytes: UnsafeRawBufferPointer, equal literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count == count else { return false }
        guard count > 0, let address = bytes.baseAddress else { return true }
        return FlatRecordReader.bytes(at: address.assumingMemoryBound(to: UInt8.self), equal: literal.utf8Start, count: count)
    }
}
