import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One blocking HTTP/1.1 exchange with a test's own server on 127.0.0.1: the request written with
/// `Connection: close`, the answer read to the end. How `FixtureServer` reads and clears its log: a client
/// independent of the app's (`SocketRequestServicer`, which the log is used to check), and without
/// FoundationNetworking's URLSession, which would bring libcurl into every test process.
/// Blocking: only ever called on a `DedicatedThread`.
enum LoopbackHTTP {
    struct Response {
        let status: Int
        let body: Data
    }

    typealias Failure = PythonPeer.Failure

    /// `timeout` bounds each wait for the socket (sending, then each read), not the whole exchange.
    static func exchange(method: String, port: Int, path: String, timeout: TimeInterval = 10) throws(Failure) -> Response {
        let what = "\(method) http://127.0.0.1:\(port)\(path)"
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "\(what): socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }

        var wait = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "\(what): connect: \(String(cString: strerror(errno)))") }

        let request = Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "\(what): send: \(String(cString: strerror(errno)))") }
            sent += count
        }

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Failure(description: "\(what): recv: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            received += buffer[..<count]
        }
        return try parse(received, what: what)
    }

    /// The status line's code and what follows the head. The fixture server frames every answer by
    /// closing the connection (and says `Content-Length`), so the rest of the bytes is the body.
    private static func parse(_ bytes: [UInt8], what: String) throws(Failure) -> Response {
        let separator = Array("\r\n\r\n".utf8)
        var headEnd = 0
        while !bytes[headEnd...].starts(with: separator) {
            guard headEnd + separator.count < bytes.count else {
                throw Failure(description: "\(what): the answer ended before its head did (\(bytes.count) bytes)")
            }
            headEnd += 1
        }
        let statusLine = String(decoding: bytes[..<(bytes[..<headEnd].firstIndex(of: 0x0D) ?? headEnd)], as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw Failure(description: "\(what): not an HTTP status line: \(statusLine.debugDescription)")
        }
        return Response(status: status, body: Data(bytes[(headEnd + separator.count)...]))
    }
}
