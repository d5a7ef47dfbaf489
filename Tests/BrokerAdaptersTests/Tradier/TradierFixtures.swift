import Foundation

/// The byte-exact Tradier bodies under Tests/Fixtures/tradier.
enum TradierFixtures {
    static let directory = FixtureFiles.directory("tradier")

    static func data(_ name: String) throws -> Data {
        try FixtureFiles.data("tradier", name)
    }
}
