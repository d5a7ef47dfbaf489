import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes bytes into a pipe with write(2), as a terminal writer would, and counts what comes out the
/// other end.
enum PipeByteCounter {
    static func throughPipe(_ bytes: [UInt8]) -> Int? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let received = Locked(0)
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received.withLock { $0 += count }
            }
            done.signal()
        }
        reader.start()
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            if written <= 0 { break }
            offset += written
        }
        close(writeEnd)
        done.wait()
        close(readEnd)
        return received.withLock { $0 }
    }
}
