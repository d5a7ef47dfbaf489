#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension AppConfig {
    /// Key paths of the credentials written in the config file itself (never their values).
    public var credentialKeyPathsInFile: [String] {
        brokers.all.flatMap { section in
            section.credentials.filter { $0.value != nil }.map { "brokers.\(section.id).\($0.key)" }
        }
    }

    /// A warning when this config holds secrets and the file at `path` is open to group or others.
    /// `nil` when there is nothing to warn about, or when the file cannot be examined.
    public func credentialExposureWarning(forFileAt path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Self.credentialExposureWarning(path: path, mode: UInt32(status.st_mode), credentialKeyPaths: credentialKeyPathsInFile)
    }

    /// The pure rule behind `credentialExposureWarning(forFileAt:)`: any permission bit for group or
    /// others (`mode & 0o077`) on a file holding credentials earns a warning naming the keys, not the secrets.
    public static func credentialExposureWarning(path: String, mode: UInt32, credentialKeyPaths: [String]) -> String? {
        guard !credentialKeyPaths.isEmpty, mode & 0o077 != 0 else { return nil }
        let octal = String(mode & 0o777, radix: 8)
        let permissions = String(repeating: "0", count: max(0, 3 - octal.count)) + octal
        return "warning: \(path) holds credentials (\(credentialKeyPaths.joined(separator: ", "))) "
            + "but other users may read it (mode \(permissions)); run: chmod 600 \(shellQuoted(path))"
    }

    private static func shellQuoted(_ path: String) -> String {
        let safe = path.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "/._-+~@%:,".unicodeScalars.contains($0)
        }
        return safe ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
