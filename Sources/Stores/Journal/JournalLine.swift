import Foundation

/// One line of a ledger file, the unit a crash can cut:
///
///     {"seq":1,"crc":"eb2f0dae","rec":{"kind":"order","quantity":"10","side":"buy","symbol":"AAPL"}}\n
///
/// - `seq`: the record's sequence number, 1 on the first line and one more on each line after, so a
///   missing, repeated or reordered line shows. Line N holds sequence N.
/// - `crc`: CRC-32 (zlib's, `JournalChecksum`) as 8 lowercase hex digits, of the ASCII decimal `seq`,
///   one space, and the record's bytes exactly as they stand after `"rec":` up to the line's final `}`.
///   In Python: `zlib.crc32(b"%d %s" % (seq, rec)) == int(crc, 16)`.
/// - `rec`: the record as JSONEncoder writes it (sorted keys, no whitespace, so never a raw newline).
/// - Every line ends in `\n`; a line without one is a write that was cut short.
///
/// The envelope is always written in exactly this layout (no spaces, keys in this order) and read the
/// same way, by position, so a replay spends its time on records rather than on parsing envelopes.
/// docs/ledger-format.md describes the file for people.
struct JournalLine: Equatable, Sendable {
    var sequence: Int
    /// Where the record's bytes are in the buffer the line was read from.
    var record: Range<Int>

    private static let sequencePrefix: StaticString = #"{"seq":"#
    private static let checksumPrefix: StaticString = #","crc":""#
    private static let recordPrefix: StaticString = #"","rec":"#

    /// The line for `record` (JSON bytes) as sequence `sequence`, newline included.
    static func bytes(sequence: Int, record: [UInt8]) -> [UInt8] {
        let digits = Array(String(sequence).utf8)
        var line: [UInt8] = []
        line.reserveCapacity(record.count + digits.count + 36)
        line.append(contentsOf: UnsafeBufferPointer(start: sequencePrefix.utf8Start, count: sequencePrefix.utf8CodeUnitCount))
        line.append(contentsOf: digits)
        line.append(contentsOf: UnsafeBufferPointer(start: checksumPrefix.utf8Start, count: checksumPrefix.utf8CodeUnitCount))
        let crc = digits.withUnsafeBytes { digits in record.withUnsafeBytes { checksum(digits: digits, record: $0) } }
        let hex = String(crc, radix: 16)
        line.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 8 - hex.utf8.count))
        line.append(contentsOf: hex.utf8)
        line.append(contentsOf: UnsafeBufferPointer(start: recordPrefix.utf8Start, count: recordPrefix.utf8CodeUnitCount))
        line.append(contentsOf: record)
        line.append(UInt8(ascii: "}"))
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// The checksum of `digits` (the sequence number's ASCII), a space, and `record`.
    static func checksum(digits: UnsafeRawBufferPointer, record: UnsafeRawBufferPointer) -> UInt32 {
        var crc = JournalChecksum.update(0, digits)
        crc = withUnsafeBytes(of: UInt8(ascii: " ")) { JournalChecksum.update(crc, $0) }
        return JournalChecksum.update(crc, record)
    }

    /// Reads the line at `range` of `bytes` (without its newline) and checks its checksum; the reason
    /// when it is not a whole, intact line.
    static func parse(_ bytes: JournalBytes, _ range: Range<Int>) -> Result<JournalLine, JournalLineProblem> {
        let base = bytes.base
        var cursor = range.lowerBound
        let end = range.upperBound

        func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard end - cursor >= count, memcmp(base + cursor, text.utf8Start, count) == 0 else { return false }
            cursor += count
            return true
        }

        guard literal(sequencePrefix) else { return .failure(.notALedgerLine) }
        let digitsStart = cursor
        var sequence = 0
        while cursor < end, base[cursor] >= UInt8(ascii: "0"), base[cursor] <= UInt8(ascii: "9"), cursor - digitsStart < 18 {
            sequence = sequence * 10 + Int(base[cursor] - UInt8(ascii: "0"))
            cursor += 1
        }
        let digits = digitsStart..<cursor
        guard !digits.isEmpty, base[digitsStart] != UInt8(ascii: "0") else { return .failure(.badSequence) }
        guard literal(checksumPrefix) else { return .failure(.notALedgerLine) }
        guard end - cursor >= 8 else { return .failure(.badChecksum) }
        var written: UInt32 = 0
        for _ in 0..<8 {
            let byte = base[cursor]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return .failure(.badChecksum)
            }
            written = written << 4 | UInt32(digit)
            cursor += 1
        }
        guard literal(recordPrefix) else { return .failure(.notALedgerLine) }
        guard end - cursor >= 2, base[end - 1] == UInt8(ascii: "}") else { return .failure(.notALedgerLine) }
        let record = cursor..<(end - 1)
        let computed = checksum(digits: UnsafeRawBufferPointer(start: base + digits.lowerBound, count: digits.count),
                                record: bytes[record])
        guard computed == written else { return .failure(.checksumMismatch(written: written, computed: computed)) }
        return .success(JournalLine(sequence: sequence, record: record))
    }
}
