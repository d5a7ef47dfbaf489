#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket on 127.0.0.1 that listens and never accepts: connections complete in the kernel's
/// backlog and then hear nothing (a server stuck before the TLS handshake).
struct LoopbackListener {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let port: Int
    private let descriptor: Int32

    /// `listening: false` only binds: the port is ours, so nothing else can take it, and a connection to
    /// it is refused by the kernel (a closed port that stays closed for the whole test).
    init(listening: Bool = true) throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && (!listening || listen(descriptor, 4) == 0) && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard listening else {
            let reason = String(cString: strerror(errno))
            closeDescriptor(descriptor)
            throw Failure(description: "cannot listen on a loopback port: \(reason)")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        closeDescriptor(descriptor)
    }
}

/// `close` is shadowed inside `LoopbackListener` by its own method.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
