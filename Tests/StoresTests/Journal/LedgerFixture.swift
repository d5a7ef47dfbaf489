import Foundation
@testable import Stores

/// A fill-like record for the ledger tests.
struct TestFill: Codable, Sendable, Hashable {
    var id: Int
    var symbol: String
    var price: Decimal
    var writer: String = "test"

    static func numbered(_ id: Int, writer: String = "test") -> TestFill {
        TestFill(id: id, symbol: ["AAPL", "MSFT", "^GSPC"][id % 3], price: Decimal(string: "187.\(id % 100)")!, writer: writer)
    }
}

/// Ledger lines and files built without the code under test: the checksum here is the bit-by-bit
/// CRC-32 definition, so a mistake in `JournalChecksum`'s tables cannot hide in both.
enum LedgerFixture {
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// `{"seq":N,"crc":"…","rec":RECORD}\n`, the checksum over "N RECORD".
    static func line(_ sequence: Int, _ record: String, crcOverride: UInt32? = nil) -> String {
        let crc = crcOverride ?? crc32(Array("\(sequence) \(record)".utf8))
        return #"{"seq":\#(sequence),"crc":"\#(hex(crc))","rec":\#(record)}"# + "\n"
    }

    static func record(_ fill: TestFill) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(fill), as: UTF8.self)
    }

    /// The lines of fills 1…count, as `Journal` writes them.
    static func lines(_ count: Int) -> [String] {
        (1...max(count, 1)).prefix(count).map { line($0, record(.numbered($0))) }
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    static func bytes(_ url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }

    /// `text` in the buffer type the decoders read.
    static func buffer(_ text: String) -> JournalBytes {
        let utf8 = Array(text.utf8)
        let bytes = JournalBytes(count: utf8.count)
        for (index, byte) in utf8.enumerated() { bytes.base[index] = byte }
        return bytes
    }
}
