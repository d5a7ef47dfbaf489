import Foundation

/// The byte-exact bodies under Tests/Fixtures/<broker>, found from this file's path so the tests run from
/// any working directory, and so the files the fixture server serves are the files these tests decode.
enum FixtureFiles {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // BrokerAdaptersTests
        .deletingLastPathComponent() // Tests
        .appendingPathComponent("Fixtures", isDirectory: true)

    static func directory(_ broker: String) -> URL {
        root.appendingPathComponent(broker, isDirectory: true)
    }

    /// `Tests/Fixtures/<broker>/<name>`, byte for byte.
    static func data(_ broker: String, _ name: String) throws -> Data {
        try Data(contentsOf: directory(broker).appendingPathComponent(name))
    }
}
