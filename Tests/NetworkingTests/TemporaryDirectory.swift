import Foundation

/// A fresh directory under the system temp directory for one test, removed afterwards.
struct TemporaryDirectory {
    let url: URL

    static func withAsync<T>(_ body: (TemporaryDirectory) async throws -> T) async throws -> T {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("NetworkingTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(TemporaryDirectory(url: url))
    }

    func path(_ relative: String) -> URL {
        url.appendingPathComponent(relative)
    }

    /// Names in `directory`, sorted.
    static func listing(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    static func permissions(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as! NSNumber).intValue & 0o777
    }
}
