import Foundation

/// A fresh directory under the system temporary directory, removed when the test is done with it.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "commonbroker-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `contents` to `name` inside the directory with the given permission bits.
    func file(_ name: String, contents: String, mode: Int = 0o600) throws -> String {
        let filePath = path + "/" + name
        try Data(contents.utf8).write(to: URL(fileURLWithPath: filePath))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: filePath)
        return filePath
    }
}
