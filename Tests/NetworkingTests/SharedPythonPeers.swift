import Foundation
import Locking
import TestSupport

/// One fixture script's servers, each started on its first use and then shared by the whole test
/// process: plain, TLS with a certificate for localhost and 127.0.0.1 from the throwaway CA, and TLS with
/// one from that CA for `other.test` only. Tests tell their traffic apart by a query item of their own.
final class SharedPythonPeers: Sendable {
    enum Kind: Sendable, Hashable {
        case plain, tls, tlsForOtherHost
    }

    private let script: URL
    private let started = Locked<[Kind: Task<PythonPeer, any Error>]>([:])

    init(script: URL) {
        self.script = script
    }

    func peer(_ kind: Kind) async throws -> PythonPeer {
        let script = script
        let task = started.withLock { started in
            if let task = started[kind] { return task }
            let task = Task<PythonPeer, any Error> {
                switch kind {
                case .plain:
                    return try await PythonPeer.start(script: script)
                case .tls, .tlsForOtherHost:
                    let authority = try await ThrowawayCertificateAuthority.shared()
                    let certificate = kind == .tls ? authority.loopbackServer : authority.otherHostServer
                    return try await PythonPeer.start(script: script, arguments: ["--tls", certificate.certificateFile, certificate.keyFile])
                }
            }
            started[kind] = task
            return task
        }
        return try await task.value
    }
}
