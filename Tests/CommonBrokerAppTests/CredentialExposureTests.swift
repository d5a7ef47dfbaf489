import Testing
@testable import CommonBrokerApp

@Suite struct CredentialExposureTests {
    private let withToken = #"{"brokers": {"tradier": {"enabled": true, "token": "s3cret-token"}}}"#

    @Test func groupReadableFileWithATokenWarns() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("config.json", contents: withToken, mode: 0o644)
        let config = try AppConfig.load(from: path).get()
        let warning = try #require(config.credentialExposureWarning(forFileAt: path))
        #expect(warning == "warning: \(path) holds credentials (brokers.tradier.token) but other users may read it (mode 644); run: chmod 600 \(path)")
        #expect(!warning.contains("s3cret"))
    }

    @Test func privateFileDoesNotWarn() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("config.json", contents: withToken, mode: 0o600)
        let config = try AppConfig.load(from: path).get()
        #expect(config.credentialExposureWarning(forFileAt: path) == nil)
    }

    @Test func fileWithoutCredentialsDoesNotWarn() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("config.json", contents: #"{"brokers": {"tradier": {"tokenEnv": "T"}}}"#, mode: 0o644)
        #expect(try AppConfig.load(from: path).get().credentialExposureWarning(forFileAt: path) == nil)
    }

    @Test func ruleLooksAtEveryGroupAndOtherBit() {
        let keys = ["brokers.alpaca.keyId", "brokers.alpaca.secretKey"]
        #expect(AppConfig.credentialExposureWarning(path: "/c.json", mode: 0o100600, credentialKeyPaths: keys) == nil)
        #expect(AppConfig.credentialExposureWarning(path: "/c.json", mode: 0o100400, credentialKeyPaths: keys) == nil)
        #expect(AppConfig.credentialExposureWarning(path: "/c.json", mode: 0o100640, credentialKeyPaths: keys)?.contains("mode 640") == true)
        #expect(AppConfig.credentialExposureWarning(path: "/c.json", mode: 0o100604, credentialKeyPaths: keys) != nil)
        #expect(AppConfig.credentialExposureWarning(path: "/c.json", mode: 0o100620, credentialKeyPaths: keys) != nil)
        #expect(AppConfig.credentialExposureWarning(path: "/c.json", mode: 0o100644, credentialKeyPaths: []) == nil)
        #expect(AppConfig.credentialExposureWarning(path: "/my dir/c.json", mode: 0o044, credentialKeyPaths: keys)
            == "warning: /my dir/c.json holds credentials (brokers.alpaca.keyId, brokers.alpaca.secretKey) but other users may read it (mode 044); run: chmod 600 '/my dir/c.json'")
    }

    @Test func missingFileGivesNoWarning() throws {
        let config = try AppConfig.load(contentsOf: withToken, path: "x").get()
        #expect(config.credentialExposureWarning(forFileAt: "/nonexistent/commonbroker/config.json") == nil)
    }
}
