import Foundation
@testable import Locking
import Testing

@Suite struct KernelThreadNameTests {
    @Test func aNameIsCutToFifteenBytesBetweenCharacters() {
        #expect(KernelThreadName.truncated("terminal ui") == "terminal ui")
        #expect(KernelThreadName.truncated("ws stream.data.alpaca.markets") == "ws stream.data.")
        // "é" is two bytes: fourteen ASCII and one "é" would be sixteen, so the "é" goes whole.
        #expect(KernelThreadName.truncated("abcdefghijklmnéx") == "abcdefghijklmn")
    }

    #if os(Linux)
    @Test func theKernelShowsTheName() async {
        let seen = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let thread = Thread {
                KernelThreadName.setForCurrentThread("cb test thread")
                let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                continuation.resume(returning: comm.trimmingCharacters(in: .newlines))
            }
            thread.start()
        }
        #expect(seen == "cb test thread")
    }
    #endif
}
