/// Reads the members of one flat JSON object in the layout JSONEncoder writes, in place, for a record
/// type's own parser (`JournalRecordParsing`): no whitespace, and every value a string, a number,
/// `true`, `false` or `null`.
///
///     var reader = FlatRecordReader(json)
///     while let member = reader.next() { … member.name, member.value … }
///     guard reader.isComplete else { return nil }   // not such an object: leave it to Codable
///
/// It checks the JSON as it goes and stops at anything else: whitespace, a nested object or array, a
/// number outside JSON's grammar, bytes after the object, and in a string an escape or any byte outside
/// printable ASCII. Such a record goes to Codable, whose checks (escapes, valid UTF-8) then apply; they
/// are rare in a ledger, whose ids, symbols, enum words and decimal text are plain ASCII. So whatever
/// this reader hands out is valid JSON that JSONDecoder reads the same way: a string's bytes are its
/// text, a number's bytes are a JSON number.
///
/// Inlinable, with its innards visible to the modules that use it: it runs for every member of every
/// line of a replay, and a call across modules per member and per byte compare costs more than the
/// reading.
public struct FlatRecordReader {
    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let end: Int
    @usableFromInline var cursor = 1
    @usableFromInline var state: State

    @usableFromInline
    enum State {
        case members, complete, unreadable
    }

    @inlinable
    public init(_ json: UnsafeRawBufferPointer) {
        guard let address = json.baseAddress, json.count >= 2, json[0] == UInt8(ascii: "{") else {
            // Any valid address will do: nothing is read in this state.
            base = UnsafePointer(bitPattern: 1)!
            end = 0
            state = .unreadable
            return
        }
        base = address.assumingMemoryBound(to: UInt8.self)
        end = json.count
        if json[1] == UInt8(ascii: "}") {
            state = json.count == 2 ? .complete : .unreadable
        } else {
            state = .members
        }
    }

    /// True once every member was read and the object ended exactly where the bytes end.
    @inlinable
    public var isComplete: Bool { state == .complete }

    /// The next member; nil after the last one, or as soon as the bytes turn out not to be a flat object
    /// this reader reads (then `isComplete` stays false).
    @inlinable
    public mutating func next() -> FlatRecordMember? {
        guard state == .members else { return nil }
        guard cursor < end, base[cursor] == UInt8(ascii: "\""), let nameEnd = stringEnd(cursor + 1),
              nameEnd + 1 < end, base[nameEnd + 1] == UInt8(ascii: ":")
        else {
            state = .unreadable
            return nil
        }
        let name = UnsafeRawBufferPointer(start: base + cursor + 1, count: nameEnd - cursor - 1)
        cursor = nameEnd + 2
        return valueAndSeparator().map { FlatRecordMember(name: name, value: $0) }
    }

    /// The value of the next member when that member is named `name`, for reading a record in the
    /// member order its writer keeps (JSONEncoder's sorted keys): one compare instead of finding the
    /// name's end and then which name it is. Nil, with nothing read, when the next member has another
    /// name (or there is none); nil too, ending the reading as `next()` does, when its value is not one
    /// this reader reads.
    @inlinable
    public mutating func nextMember(named name: StaticString) -> FlatRecordValue? {
        guard state == .members else { return nil }
        let count = name.utf8CodeUnitCount
        let nameStart = cursor + 1
        // `"name":` at the cursor.
        guard end - cursor > count + 2, base[cursor] == UInt8(ascii: "\""), base[nameStart + count] == UInt8(ascii: "\""),
              base[nameStart + count + 1] == UInt8(ascii: ":")
        else { return nil }
        guard Self.bytes(at: base + nameStart, equal: name.utf8Start, count: count) else { return nil }
        cursor = nameStart + count + 2
        return valueAndSeparator()
    }

    /// Whether the `count` bytes at `bytes` and at `expected` are the same: a member's name, compared as
    /// at most two words that may overlap rather than byte by byte (names are 3 to 13 bytes; a replay
    /// compares a dozen per line).
    @inlinable
    static func bytes(at bytes: UnsafePointer<UInt8>, equal expected: UnsafePointer<UInt8>, count: Int) -> Bool {
        let raw = UnsafeRawPointer(bytes), other = UnsafeRawPointer(expected)
        switch count {
        case 8...:
            var offset = 0
            while count - offset > 8 {
                guard raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == other.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else {
                    return false
                }
                offset += 8
            }
            return raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == other.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        case 4...:
            return raw.loadUnaligned(as: UInt32.self) == other.loadUnaligned(as: UInt32.self)
                && raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == other.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        default:
            var index = 0
            while index < count {
                guard bytes[index] == expected[index] else { return false }
                index += 1
            }
            return true
        }
    }

    /// The value at the cursor and the `,` or the final `}` after it.
    @inlinable
    mutating func valueAndSeparator() -> FlatRecordValue? {
        guard let value = value(), cursor < end else {
            state = .unreadable
            return nil
        }
        switch base[cursor] {
        case UInt8(ascii: ","):
            cursor += 1
        case UInt8(ascii: "}") where cursor + 1 == end:
            state = .complete
        default:
            state = .unreadable
            return nil
        }
        return value
    }

    /// The value at the cursor, which then moves past it.
    @inlinable
    mutating func value() -> FlatRecordValue? {
        guard cursor < end else { return nil }
        let start = cursor
        switch base[start] {
        case UInt8(ascii: "\""):
            guard let closingQuote = stringEnd(start + 1) else { return nil }
            cursor = closingQuote + 1
            return FlatRecordValue(kind: .string, bytes: UnsafeRawBufferPointer(start: base + start + 1, count: closingQuote - start - 1))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let numberEnd = numberEnd(start) else { return nil }
            cursor = numberEnd
            return FlatRecordValue(kind: .number, bytes: UnsafeRawBufferPointer(start: base + start, count: numberEnd - start))
        case UInt8(ascii: "t"):
            return literal("true", .true)
        case UInt8(ascii: "f"):
            return literal("false", .false)
        case UInt8(ascii: "n"):
            return literal("null", .null)
        default:
            return nil
        }
    }

    @inlinable
    mutating func literal(_ word: StaticString, _ kind: FlatRecordValue.Kind) -> FlatRecordValue? {
        let bytes = UnsafeRawBufferPointer(start: base + cursor, count: min(word.utf8CodeUnitCount, end - cursor))
        guard FlatRecordValue.bytes(bytes, equal: word) else { return nil }
        cursor += bytes.count
        return FlatRecordValue(kind: kind, bytes: bytes)
    }

    /// The offset of the quote that closes the string whose text starts at `start`; nil when the string
    /// holds an escape or a byte outside printable ASCII, or is not closed. Eight bytes a step, the last
    /// few one by one: a ledger line is mostly strings.
    @inlinable
    func stringEnd(_ start: Int) -> Int? {
        var index = start
        while end - index >= 8 {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian
            let stops = Self.stopBytes(word)
            if stops != 0 {
                let offset = index + stops.trailingZeroBitCount / 8
                return base[offset] == UInt8(ascii: "\"") ? offset : nil
            }
            index += 8
        }
        while index < end {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") { return index }
            // Printable ASCII is 0x20…0x7E; the backslash starts an escape.
            guard byte &- 0x20 < 0x5F, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// The high bit set in each byte of `word` (little-endian) that ends a plain string or makes it one
    /// this reader leaves alone: a quote, a backslash, a control character (below 0x20, or 0x7F), a byte
    /// of non-ASCII text. The lowest bit set marks the first such byte exactly (those above it may be
    /// false alarms, from the borrow of a subtraction), which is all `stringEnd` looks at.
    @inlinable
    static func stopBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let quotes = zeroBytes(word ^ (ones &* 0x22))
        let backslashes = zeroBytes(word ^ (ones &* 0x5C))
        let deletes = zeroBytes(word ^ (ones &* 0x7F))
        let controls = (word &- ones &* 0x20) & ~word & highs
        return quotes | backslashes | deletes | controls | (word & highs)
    }

    /// The end of the number that starts at `start`, in JSON's grammar (RFC 8259 §6): an optional minus,
    /// an integer part without leading zeros, an optional fraction and an optional exponent.
    @inlinable
    func numberEnd(_ start: Int) -> Int? {
        var index = start
        func isDigit(_ offset: Int) -> Bool { offset < end && base[offset] &- UInt8(ascii: "0") < 10 }
        if base[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return nil }
        if base[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < end, base[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return nil }
            while isDigit(index) { index += 1 }
        }
        if index < end, base[index] == UInt8(ascii: "e") || base[index] == UInt8(ascii: "E") {
            index += 1
            if index < end, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { return nil }
            while isDigit(index) { index += 1 }
        }
        return index
    }
}
