import Foundation
import TestSupport
@testable import Networking

/// What the client tests share: a real nats-server in a temporary directory, and client options that
/// reconnect quickly (the backoff is the product's own pacing, not a test's wait) with a fixed seed.
enum NATSLiveServer {
    /// Starts a server, runs `body`, kills the server whatever happened.
    static func with<T>(
        jetStream: Bool = true, arguments: [String] = [], _ body: (NATSServerProcess, TemporaryDirectory) async throws -> T
    ) async throws -> T {
        try await TemporaryDirectory.withAsync { directory in
            let server = try await NATSServerProcess.start(in: directory.path("server-1"), jetStream: jetStream, arguments: arguments)
            do {
                let result = try await body(server, directory)
                await server.kill()
                return result
            } catch {
                await server.kill()
                throw error
            }
        }
    }

    static func options(_ urls: [String], credentials: NATSCredentials? = nil, name: String = "networking-tests") -> NATSConnection.Options {
        NATSConnection.Options(
            servers: urls, credentials: credentials, name: name, connectTimeout: TestTime.scaled(.seconds(5)),
            reconnectBackoff: NATSReconnectBackoff(initial: .milliseconds(20), maximum: .milliseconds(250), jitter: 0.5),
            requestTimeout: TestTime.scaled(.seconds(10)), randomSeed: 0x5EED)
    }

    static func connect(_ server: NATSServerProcess, credentials: NATSCredentials? = nil) async throws -> NATSConnection {
        try await NATSConnection.connect(options([server.url], credentials: credentials))
    }

    static func text(_ message: NATSMessage) -> String {
        String(decoding: message.payload, as: UTF8.self)
    }
}
