/// The elements of one JSON array, found once when the container is made.
struct RecordUnkeyedContainer: UnkeyedDecodingContainer {
    let scanner: RecordScanner
    let elements: [RecordScanner.Span]
    private(set) var currentIndex = 0

    init(scanner: RecordScanner, elements: [RecordScanner.Span]) {
        self.scanner = scanner
        self.elements = elements
    }

    var codingPath: [any CodingKey] { [] }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The next element, consumed only when `read` succeeds (as JSONDecoder: a failed decode can be
    /// retried as another type).
    private mutating func next<T>(_ type: Any.Type, _ read: (RecordDecoder) throws -> T) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: [], debugDescription: "the array has no more elements"))
        }
        let value = try read(RecordDecoder(scanner: scanner, span: elements[currentIndex]))
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return try next(Never.self) { _ in false } }
        if scanner.isNull(elements[currentIndex]) {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decodeBool() } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decodeString() } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.decodeDouble() } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.decodeFloat() } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.decodeInteger(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.decodeInteger(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.decodeInteger(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.decodeInteger(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.decodeInteger(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.decodeInteger(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.decodeInteger(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.decodeInteger(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.decodeInteger(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.decodeInteger(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.decode(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(type) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Int].self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(Never.self) { $0 }
    }
}
