import Foundation

/// Reads Tests/Fixtures/alpaca/ from the source tree, so the files the fixture server serves are the files
/// these tests decode.
enum AlpacaFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Alpaca
        .deletingLastPathComponent() // BrokerAdaptersTests
        .deletingLastPathComponent() // Tests
        .appendingPathComponent("Fixtures/alpaca", isDirectory: true)

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    static let keyID = "test-key-id"
    static let secretKey = "test-secret"
}
