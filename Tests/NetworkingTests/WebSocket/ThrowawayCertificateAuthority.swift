import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// A certificate authority that exists only for this test process, made with the `openssl` command
/// (`make test` installs it), and the server certificates it signed. Nothing is trusted system-wide: the
/// client trusts it only through `LiveWebSocketConnector.Options.extraCAFile`.
///
/// Made once per process (`shared()`), in a directory named after the process id and removed at exit.
/// P-256 keys keep generation to a fraction of a second.
struct ThrowawayCertificateAuthority: Sendable {
    struct ServerCertificate: Sendable {
        let certificateFile: String
        let keyFile: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The CA certificate (PEM): what a client passes as `extraCAFile`.
    let certificateFile: String
    /// Valid for `localhost` and `127.0.0.1`: the names the tests dial.
    let loopbackServer: ServerCertificate
    /// Valid for `other.test` only, signed by the same CA: a trusted chain naming the wrong host.
    let otherHostServer: ServerCertificate

    static func shared() async throws -> ThrowawayCertificateAuthority {
        try await sharedAuthority.value
    }

    private static let sharedAuthority = Task {
        try await ThrowawayCertificateAuthority(directory: directoryForThisProcess)
    }

    private static var directoryForThisProcess: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("commonbroker-test-ca-\(getpid())", isDirectory: true)
    }

    private init(directory: URL) async throws {
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The servers read their files once, at start-up; nothing needs them after the tests.
        atexit { try? FileManager.default.removeItem(at: ThrowawayCertificateAuthority.directoryForThisProcess) }
        let openssl = try Self.opensslExecutable()
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        // The CA's own extensions come from this file rather than the system openssl.cnf, whose defaults
        // differ between distributions.
        try """
        [req]
        distinguished_name = name
        prompt = no
        [name]
        CN = CommonBroker throwaway test CA
        [authority]
        basicConstraints = critical, CA:true
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        """.write(toFile: path("openssl.cnf"), atomically: true, encoding: .utf8)
        try await Self.run(openssl, [
            "req", "-x509", "-config", path("openssl.cnf"), "-extensions", "authority",
            "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2",
        ])
        certificateFile = path("ca.pem")

        func serverCertificate(named name: String, alternativeNames: String) async throws -> ServerCertificate {
            try """
            basicConstraints = critical, CA:false
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = \(alternativeNames)
            authorityKeyIdentifier = keyid
            """.write(toFile: path("\(name).ext"), atomically: true, encoding: .utf8)
            try await Self.run(openssl, [
                "req", "-new", "-config", path("openssl.cnf"), "-subj", "/CN=\(name)",
                "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", path("\(name).key"), "-out", path("\(name).csr"),
            ])
            // A random serial: no serial file to keep, and no two certificates share one.
            let serial = "0x" + (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            try await Self.run(openssl, [
                "x509", "-req", "-in", path("\(name).csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                "-set_serial", serial, "-days", "2", "-extfile", path("\(name).ext"), "-out", path("\(name).pem"),
            ])
            return ServerCertificate(certificateFile: path("\(name).pem"), keyFile: path("\(name).key"))
        }
        loopbackServer = try await serverCertificate(named: "localhost", alternativeNames: "DNS:localhost, IP:127.0.0.1")
        otherHostServer = try await serverCertificate(named: "other.test", alternativeNames: "DNS:other.test")
    }

    private static func run(_ openssl: String, _ arguments: [String]) async throws {
        let (status, output) = try await Subprocess.run(openssl, arguments)
        guard status == 0 else {
            throw Failure(description: "openssl \(arguments.prefix(2).joined(separator: " ")) failed (\(status)): \(output.suffix(600))")
        }
    }

    /// `Subprocess` wants a path; `make test` installs openssl from apt.
    private static func opensslExecutable() throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        for directory in directories {
            let candidate = directory + "/openssl"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Failure(description: "the openssl command is not installed (apt-get install openssl; `make test` does it)")
    }
}
