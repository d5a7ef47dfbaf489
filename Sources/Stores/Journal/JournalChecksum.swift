/// CRC-32 as in zlib, gzip and PNG (IEEE 802.3: reflected polynomial 0xEDB88320, initial value and final
/// XOR 0xFFFFFFFF), so a ledger line can be checked with `zlib.crc32` in Python (docs/ledger-format.md).
/// Written here rather than linked from zlib: the package links no library it can do without.
///
/// Slicing-by-8 (Intel's method, eight tables of 256 entries): a replay checks every record's bytes,
/// and eight bytes per step run several times faster than the one-byte table loop.
enum JournalChecksum {
    /// The checksum of `bytes`, continuing from `crc` (the checksum of what came before; 0 to start).
    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard var pointer = bytes.baseAddress else { return crc }
        var count = bytes.count
        var crc = ~crc
        tables.withUnsafeBufferPointer { table in
            while count >= 8 {
                let low = crc ^ pointer.loadUnaligned(as: UInt32.self).littleEndian
                let high = pointer.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian
                crc = table[7 &* 256 &+ Int(low & 0xFF)]
                    ^ table[6 &* 256 &+ Int((low >> 8) & 0xFF)]
                    ^ table[5 &* 256 &+ Int((low >> 16) & 0xFF)]
                    ^ table[4 &* 256 &+ Int(low >> 24)]
                    ^ table[3 &* 256 &+ Int(high & 0xFF)]
                    ^ table[2 &* 256 &+ Int((high >> 8) & 0xFF)]
                    ^ table[1 &* 256 &+ Int((high >> 16) & 0xFF)]
                    ^ table[Int(high >> 24)]
                pointer += 8
                count -= 8
            }
            while count > 0 {
                crc = table[Int((crc ^ UInt32(pointer.load(as: UInt8.self))) & 0xFF)] ^ (crc >> 8)
                pointer += 1
                count -= 1
            }
        }
        return ~crc
    }

    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        let array = Array(bytes)
        return array.withUnsafeBytes { update(0, $0) }
    }

    /// Table k holds the CRC of a byte followed by k zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            tables[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()
}
