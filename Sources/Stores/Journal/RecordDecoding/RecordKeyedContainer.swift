/// The members of one JSON object, indexed once when the container is made; a lookup compares the
/// key's UTF-8 with the member names in place.
struct RecordKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let scanner: RecordScanner
    let entries: [RecordScanner.Entry]

    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        entries.compactMap { entry in (try? scanner.key(entry)).flatMap(Key.init(stringValue:)) }
    }

    func contains(_ key: Key) -> Bool { index(of: key) >= 0 }

    /// The member's index, or -1. (Not an optional: in this generic code, `Int?` costs a metadata
    /// lookup on every call, which was a tenth of a replay.)
    private func index(of key: Key) -> Int {
        var name = key.stringValue
        return name.withUTF8 { name in
            var index = 0
            while index < entries.count {
                if scanner.keyEquals(entries[index], name) { return index }
                index += 1
            }
            return -1
        }
    }

    private func value(_ key: Key) throws -> RecordDecoder {
        let index = index(of: key)
        guard index >= 0 else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: [], debugDescription: "no member \"\(key.stringValue)\""))
        }
        let entry = entries[index]
        return RecordDecoder(scanner: scanner, span: RecordScanner.Span(start: entry.valueStart, end: entry.valueEnd))
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key).decodeBool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(key).decodeString() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key).decodeDouble() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(key).decodeFloat() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(key).decodeInteger(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(key).decodeInteger(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(key).decodeInteger(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(key).decodeInteger(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(key).decodeInteger(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(key).decodeInteger(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(key).decodeInteger(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(key).decodeInteger(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(key).decodeInteger(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(key).decodeInteger(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try value(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try value(key).unkeyedContainer()
    }

    /// JSONDecoder gives the member "super" (or null when there is none); this leaves such rare
    /// records to JSONDecoder.
    func superDecoder() throws -> any Decoder {
        throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "superDecoder is left to JSONDecoder"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder()
    }
}
