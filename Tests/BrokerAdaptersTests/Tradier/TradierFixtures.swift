import Foundation

/// The byte-exact Tradier bodies under Tests/Fixtures/tradier, found from this file's path so the tests
/// run from any working directory.
enum TradierFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Tradier
        .deletingLastPathComponent() // BrokerAdaptersTests
        .deletingLastPathComponent() // Tests
        .appendingPathComponent("Fixtures/tradier", isDirectory: true)

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try data(name), as: UTF8.self)
    }
}
