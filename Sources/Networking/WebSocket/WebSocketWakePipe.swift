import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A self-pipe: other threads write a byte to wake the I/O thread out of poll() when there is
/// something to send or a close to start. Closed only on deinit, after every user is gone, so a late
/// `wake()` can never write into a descriptor number the process has reused.
final class WebSocketWakePipe: Sendable {
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    init() throws(WebSocketError) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw .network("cannot create a wake-up pipe: \(String(cString: strerror(errno)))")
        }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Never blocks: when the pipe is full a wake-up is already pending, which is all that matters.
    func wake() {
        var byte: UInt8 = 1
        while write(writeDescriptor, &byte, 1) < 0, errno == EINTR {}
    }

    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &bytes, bytes.count) > 0 {}
    }
}
