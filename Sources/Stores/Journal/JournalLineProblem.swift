/// Why a line of a ledger is not a whole, intact `JournalLine`.
enum JournalLineProblem: Error, Equatable, CustomStringConvertible {
    case noNewline
    case notALedgerLine
    case badSequence
    case badChecksum
    case checksumMismatch(written: UInt32, computed: UInt32)

    var description: String {
        switch self {
        case .noNewline: "no newline at the end"
        case .notALedgerLine: #"not a ledger line ({"seq":N,"crc":"…","rec":…})"#
        case .badSequence: "no valid sequence number"
        case .badChecksum: "the checksum is not 8 lowercase hex digits"
        case .checksumMismatch(let written, let computed):
            "the checksum does not match (the line says \(Self.hex(written)), its record gives \(Self.hex(computed)))"
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
