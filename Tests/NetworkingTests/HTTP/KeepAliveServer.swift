import Foundation
import TestSupport

/// Tests/Fixtures/http/keepalive_server.py: an HTTP/1.1 server that keeps connections alive and
/// misbehaves on request (see the script's routes). One of each kind per test process, shared: every
/// test uses a servicer of its own, so no test reuses another's connection, and tests read connection
/// numbers only relative to each other.
final class KeepAliveServer: Sendable {
    private let peer: PythonPeer
    let usesTLS: Bool
    var port: Int { peer.port }

    private init(peer: PythonPeer, usesTLS: Bool) {
        self.peer = peer
        self.usesTLS = usesTLS
    }

    private static let peers = SharedPythonPeers(
        script: PythonPeer.repositoryRoot.appendingPathComponent("Tests/Fixtures/http/keepalive_server.py"))

    static func plain() async throws -> KeepAliveServer { KeepAliveServer(peer: try await peers.peer(.plain), usesTLS: false) }
    /// https with a certificate for localhost and 127.0.0.1 from the throwaway CA.
    static func tls() async throws -> KeepAliveServer { KeepAliveServer(peer: try await peers.peer(.tls), usesTLS: true) }
    /// https with a certificate from the throwaway CA for `other.test` only.
    static func tlsForOtherHost() async throws -> KeepAliveServer { KeepAliveServer(peer: try await peers.peer(.tlsForOtherHost), usesTLS: true) }

    func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "\(usesTLS ? "https" : "http")://\(host):\(port)\(path)?test=\(UUID().uuidString)")!
    }

    /// Waits (at most 5 s) until the server says `line`, e.g. `CLOSED 7`; false if it did not.
    func said(_ line: String) async -> Bool {
        await peer.line(where: { $0 == line }) != nil
    }

    /// The number of the connection on which the server read the request to `url` (a /silent one) and
    /// will never answer it; nil if that did not happen within 5 s.
    func silentConnection(for url: URL) async -> String? {
        let target = " " + url.path + "?" + (url.query ?? "")
        guard let line = await peer.line(where: { $0.hasPrefix("SILENT ") && $0.hasSuffix(target) }) else { return nil }
        return line.split(separator: " ").dropFirst().first.map(String.init)
    }
}
