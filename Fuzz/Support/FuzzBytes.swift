/// Choices drawn from the fuzzer's bytes, for harnesses that build structured input from them (records,
/// a ledger, a mutation to apply): libFuzzer's mutations of the bytes then become changes of the
/// structure, and its coverage feedback steers the choices. Past the end every draw is zero, so any input,
/// even an empty one, makes something.
struct FuzzBytes {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    var isAtEnd: Bool { index >= bytes.count }

    /// The bytes not drawn yet.
    var rest: ArraySlice<UInt8> { bytes[min(index, bytes.count)...] }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// Eight bytes as one word, for bit patterns.
    mutating func word() -> UInt64 {
        (0..<8).reduce(0) { word, _ in word << 8 | UInt64(byte()) }
    }

    /// A number in `range`, from as few bytes as the range needs.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(bitPattern: Int64(range.upperBound) &- Int64(range.lowerBound))
        var value: UInt64 = 0
        var covered: UInt64 = 0
        while covered < span {
            value = value << 8 | UInt64(byte())
            covered = covered << 8 | 0xFF
        }
        guard span < UInt64.max else { return range.lowerBound &+ Int(truncatingIfNeeded: value) }
        // In the range, so the sum cannot overflow even where `span + 1` is beyond `Int`.
        return range.lowerBound &+ Int(truncatingIfNeeded: value % (span + 1))
    }

    mutating func pick<T>(_ options: [T]) -> T {
        options[int(in: 0...(options.count - 1))]
    }

    /// Up to `limit` raw bytes, the count drawn first.
    mutating func bytes(upTo limit: Int) -> [UInt8] {
        (0..<int(in: 0...limit)).map { _ in byte() }
    }

    /// Up to `limit` scalars from every part of Unicode that JSON writers and terminals treat differently:
    /// plain ASCII, quotes, backslashes and slashes, C0 and C1 controls, bidi marks, a byte order mark,
    /// two- to four-byte scalars.
    mutating func text(upTo limit: Int = 12) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<int(in: 0...limit) {
            let value: UInt32 = switch int(in: 0...5) {
            case 0: UInt32(int(in: 0x20...0x7E))
            case 1: UInt32(pick([0x22, 0x5C, 0x2F, 0x7F, 0x85, 0x2028, 0x202E, 0xFEFF]))
            case 2: UInt32(int(in: 0x00...0x1F))
            case 3: UInt32(int(in: 0x80...0x7FF))
            case 4: UInt32(int(in: 0x800...0xFFFF))
            default: UInt32(int(in: 0x10000...0x10FFFF))
            }
            scalars.append(Unicode.Scalar(value) ?? "?")
        }
        return String(scalars)
    }
}
