import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// A client that writes whatever bytes a test gives it, for what our own client refuses to send (a
/// header block that is not one). Connects, sends CONNECT, `bytes` and a PING, and returns once the
/// PONG (or anything ending in it) has come back, so the server has processed everything before.
enum RawNATSClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func send(_ bytes: [UInt8], toPort port: Int) async throws {
        try await DedicatedThread.run("raw nats client") { () throws -> Void in
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw Failure(description: "connect: \(String(cString: strerror(errno)))") }
            let message = Array(#"CONNECT {"verbose":false,"headers":true,"protocol":1}"#.utf8) + [13, 10] + bytes + Array("PING\r\n".utf8)
            guard message.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == message.count else {
                throw Failure(description: "short write")
            }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: received, as: UTF8.self).hasSuffix("PONG\r\n") {
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { throw Failure(description: "no PONG; got \(String(decoding: received, as: UTF8.self))") }
                received += buffer[0..<count]
            }
        }
    }
}
