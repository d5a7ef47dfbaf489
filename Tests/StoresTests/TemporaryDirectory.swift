import Foundation

/// A fresh directory under the system temp directory for one test.
struct TemporaryDirectory {
    let url: URL

    /// Runs `body` with a new directory and removes it afterwards, restoring permissions first because
    /// some tests chmod things to 000.
    static func with<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
        let url = try create()
        defer { remove(url) }
        return try body(TemporaryDirectory(url: url))
    }

    static func withAsync<T>(_ body: (TemporaryDirectory) async throws -> T) async throws -> T {
        let url = try create()
        defer { remove(url) }
        return try await body(TemporaryDirectory(url: url))
    }

    func path(_ relative: String) -> URL {
        url.appendingPathComponent(relative)
    }

    private static func create() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("StoresTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func remove(_ url: URL) {
        chmod(url.path, 0o700)
        if let walker = FileManager.default.enumerator(atPath: url.path) {
            for case let relative as String in walker {
                chmod(url.appendingPathComponent(relative).path, 0o700)
            }
        }
        try? FileManager.default.removeItem(at: url)
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
