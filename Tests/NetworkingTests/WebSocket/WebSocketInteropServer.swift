import Foundation
import TestSupport

/// Tests/Fixtures/ws/echo_server.py: an independent WebSocket server (Python's `websockets`) whose
/// behaviour is chosen by the request path (see the script). One of each kind is started per test
/// process and shared: every URL from `url(_:)` carries a query item of its own, so a test finds its
/// connection's `CLOSED` line among everyone else's.
final class WebSocketInteropServer: Sendable {
    private let peer: PythonPeer
    let usesTLS: Bool
    var port: Int { peer.port }

    private init(peer: PythonPeer, usesTLS: Bool) {
        self.peer = peer
        self.usesTLS = usesTLS
    }

    private static let peers = SharedPythonPeers(
        script: PythonPeer.repositoryRoot.appendingPathComponent("Tests/Fixtures/ws/echo_server.py"))

    /// ws://
    static func plain() async throws -> WebSocketInteropServer { WebSocketInteropServer(peer: try await peers.peer(.plain), usesTLS: false) }
    /// wss:// with a certificate for localhost and 127.0.0.1 from the throwaway CA.
    static func tls() async throws -> WebSocketInteropServer { WebSocketInteropServer(peer: try await peers.peer(.tls), usesTLS: true) }
    /// wss:// with a certificate from the throwaway CA for `other.test` only.
    static func tlsForOtherHost() async throws -> WebSocketInteropServer {
        WebSocketInteropServer(peer: try await peers.peer(.tlsForOtherHost), usesTLS: true)
    }

    /// `path` on this server with a fresh `test=<uuid>` query item appended (`path` may have a query).
    func url(_ path: String, host: String = "127.0.0.1", scheme: String? = nil) -> URL {
        let separator = path.contains("?") ? "&" : "?"
        let scheme = scheme ?? (usesTLS ? "wss" : "ws")
        return URL(string: "\(scheme)://\(host):\(port)\(path)\(separator)test=\(UUID().uuidString)")!
    }

    /// What the server saw the client send on the way out of the connection to `url`: `CLOSED <target>
    /// <code> <reason>`, or `CLOSED <target> none`, as "<code> <reason>" / "none". nil when the
    /// connection has not ended within `timeout`.
    func closeReport(for url: URL, timeout: Duration = .seconds(5)) async -> String? {
        let prefix = "CLOSED \(Self.requestTarget(of: url)) "
        return await peer.line(where: { $0.hasPrefix(prefix) }, timeout: timeout).map { String($0.dropFirst(prefix.count)) }
    }

    static func requestTarget(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}
