import Foundation
import Testing
@testable import CommonBrokerApp

/// The start-up memory settings (`ProcessMemory`): which mappings count as code that can be let go.
@Suite struct ProcessMemoryTests {
    /// A mapping in /proc/self/smaps: its line, then some of its fields.
    static func mapping(_ line: String, anonymous: Int) -> String {
        """
        \(line)
        Size:               6516 kB
        Rss:                4096 kB
        Anonymous:          \(anonymous) kB
        VmFlags: rd ex mr mw me sd 
        """
    }

    static let smaps = [
        mapping("55d0c8a00000-55d0ca45d000 r-xp 00000000 08:01 1234                       /opt/app/commonbroker", anonymous: 0),
        mapping("55d0ca45e000-55d0ca512000 r--p 01a5a000 08:01 1234                       /opt/app/commonbroker", anonymous: 0),
        mapping("55d0ca512000-55d0ccb0d000 rw-p 01b0e000 08:01 1234                       /opt/app/commonbroker", anonymous: 420),
        mapping("7f1e2c000000-7f1e2c021000 rw-p 00000000 00:00 0 ", anonymous: 132),
        mapping("7f1e30a28000-7f1e30bbd000 r-xp 00028000 08:01 99                         /usr/lib/x86_64-linux-gnu/libc.so.6", anonymous: 0),
        mapping("7f1e31000000-7f1e31001000 r-xp 00000000 08:01 55                         /opt/relocated/libtextrel.so", anonymous: 4),
        mapping("7f1e31100000-7f1e31200000 r-xp 00000000 08:01 77                         /opt/my app/libspaced.so", anonymous: 0),
        mapping("7ffd1a9e0000-7ffd1a9e2000 r-xp 00000000 00:00 0                          [vdso]", anonymous: 0),
        mapping("zzzz-55d0ca45d000 r-xp 00000000 08:01 1234 /opt/app/commonbroker", anonymous: 0),
    ].joined(separator: "\n")

    @Test func codeFromFilesWithEveryPageTheFilesCounts() {
        #expect(ProcessMemory.codeRanges(inSmaps: Self.smaps) == [
            0x55d0_c8a0_0000..<0x55d0_ca45_d000,
            0x7f1e_30a2_8000..<0x7f1e_30bb_d000,
            0x7f1e_3110_0000..<0x7f1e_3120_0000,
        ])
    }

    @Test func codeWithAWrittenPageIsKept() {
        #expect(!ProcessMemory.codeRanges(inSmaps: Self.smaps).contains(0x7f1e_3100_0000..<0x7f1e_3100_1000))
    }

    @Test func nothingInAnEmptyTable() {
        #expect(ProcessMemory.codeRanges(inSmaps: "").isEmpty)
    }

    /// On Linux the test process's own code is found and let go, and the process runs on: the code it
    /// runs next comes back from the page cache.
    @Test func theTestProcessLetsGoOfItsCodeAndRunsOn() {
        #if os(Linux)
        #expect(ProcessMemory.releaseCodePages() > 0)
        #expect(ProcessMemory.codeRanges(inSmaps: Self.smaps).count == 3)
        #endif
    }
}
