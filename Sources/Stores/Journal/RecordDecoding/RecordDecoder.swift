import Foundation

/// A `Decoder` over one JSON value in a ledger's bytes, for replaying records fast: JSONDecoder needs
/// about 6 µs for a fill-sized record on Linux, which makes 100,000 fills a 600 ms replay. This one reads
/// the bytes in place and builds no tree; `RecordDecoding` falls back to JSONDecoder whenever it throws,
/// so it only has to be right where it succeeds, and gives what JSONDecoder (default strategies) would.
///
/// Like JSONDecoder it reads `Decimal` from a JSON number, `Data` from base64, `URL` from a string and
/// `Date` through its own `Codable` (a number of seconds since 2001), the JSONEncoder defaults.
///
/// What makes it fast is what it leaves out, so mind these when changing it:
/// - It is three words of plain data (a pointer and a span), so passing it as `any Decoder` and its
///   containers as existentials allocates nothing and retains nothing. The bytes stay alive because
///   `RecordDecoding` holds them for the whole decode; a `Decodable` that kept its decoder after
///   `init(from:)` would be reading freed memory (neither JSONDecoder nor anything here does that).
/// - It keeps no coding path (`codingPath` is empty): an error here only means "ask JSONDecoder", and
///   JSONDecoder's error, which is the one reported, has the path.
struct RecordDecoder: Decoder {
    let scanner: RecordScanner
    let span: RecordScanner.Span

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard scanner.first(span) == UInt8(ascii: "{") else { throw mismatch([String: Int].self) }
        return KeyedDecodingContainer(RecordKeyedContainer<Key>(scanner: scanner, entries: try scanner.objectEntries(span)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard scanner.first(span) == UInt8(ascii: "[") else { throw mismatch([Int].self) }
        return RecordUnkeyedContainer(scanner: scanner, elements: try scanner.arrayElements(span))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        RecordSingleValueContainer(decoder: self)
    }

    // MARK: This decoder's value as a type

    func decodeNil() -> Bool { scanner.isNull(span) }

    func decodeString() throws -> String {
        guard let value = try scanner.string(span) else { throw mismatch(String.self) }
        return value
    }

    func decodeBool() throws -> Bool {
        guard let value = scanner.bool(span) else { throw mismatch(Bool.self) }
        return value
    }

    func decodeInteger<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
        guard let value = scanner.integer(span, as: type) else { throw mismatch(type) }
        return value
    }

    func decodeDouble() throws -> Double {
        guard let value = scanner.double(span) else { throw mismatch(Double.self) }
        return value
    }

    func decodeFloat() throws -> Float {
        guard let value = scanner.float(span) else { throw mismatch(Float.self) }
        return value
    }

    /// Any `Decodable`, with JSONDecoder's special cases for the Foundation types JSONEncoder writes
    /// in a form other than their own `Codable` conformance.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if type == String.self { return try decodeString() as! T }
        if type == Decimal.self {
            guard let text = scanner.numberText(span), let value = Decimal(string: text) else { throw mismatch(type) }
            return value as! T
        }
        if type == Data.self {
            guard let value = Data(base64Encoded: try decodeString()) else { throw mismatch(type) }
            return value as! T
        }
        if type == URL.self {
            guard let value = URL(string: try decodeString()) else { throw mismatch(type) }
            return value as! T
        }
        return try T(from: self)
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        let context = DecodingError.Context(codingPath: [], debugDescription: "a different JSON value")
        return decodeNil() ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }
}
