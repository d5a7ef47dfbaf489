import Foundation

/// Tests/Fixtures/alpaca/ and the keys its routes expect.
enum AlpacaFixtures {
    static func data(_ name: String) throws -> Data {
        try FixtureFiles.data("alpaca", name)
    }

    static let keyID = "test-key-id"
    static let secretKey = "test-secret"
}
