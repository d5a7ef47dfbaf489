import Domain
import Testing
@testable import Stores

@Suite struct JournalChecksumTests {
    @Test func matchesTheStandardCheckValues() {
        // The check value of CRC-32/ISO-HDLC (zlib's) in the CRC catalogue, and the empty input.
        #expect(JournalChecksum.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(JournalChecksum.checksum([]) == 0)
        #expect(JournalChecksum.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }

    @Test func slicingByEightAgreesWithTheBitwiseDefinitionAtEveryLengthAndAlignment() {
        var generator = SplitMix64(seed: 15)
        let bytes = (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for start in 0..<9 {
            for length in 0...(bytes.count - start) {
                let slice = bytes[start..<(start + length)]
                #expect(JournalChecksum.checksum(slice) == LedgerFixture.crc32(slice), "start \(start), length \(length)")
            }
        }
    }

    @Test func continuesFromAnEarlierChecksum() {
        let whole = Array("3 {\"id\":3}".utf8)
        let first = whole[..<2].withUnsafeBytes { JournalChecksum.update(0, $0) }
        let both = whole[2...].withUnsafeBytes { JournalChecksum.update(first, $0) }
        #expect(both == LedgerFixture.crc32(whole))
    }
}
