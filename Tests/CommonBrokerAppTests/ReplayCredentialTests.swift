import Testing
@testable import CommonBrokerApp

/// A replay sends nothing anywhere, so it must not need broker keys.
@Suite struct ReplayCredentialTests {
    let config = try! AppConfig.load(contentsOf: """
        {"brokers": {
          "tradier": {"enabled": true},
          "alpaca": {"enabled": true, "secretKey": "from-the-file"},
          "polygon": {"enabled": true, "apiKeyEnv": "MY_POLYGON_KEY"},
          "finnhub": {"enabled": false}
        }}
        """, path: "config.json").get()

    @Test func missingCredentialsOfEnabledBrokersGetAPlaceholder() {
        let replay = config.environmentForReplay([:])
        #expect(replay == [
            "TRADIER_TOKEN": AppConfig.replayPlaceholderCredential,
            "APCA_API_KEY_ID": AppConfig.replayPlaceholderCredential,
            "MY_POLYGON_KEY": AppConfig.replayPlaceholderCredential,
        ])
    }

    @Test func credentialsThatAreSetStayAsTheyAre() {
        let replay = config.environmentForReplay(["TRADIER_TOKEN": "real", "APCA_API_KEY_ID": "", "HOME": "/h"])
        #expect(replay["TRADIER_TOKEN"] == "real")
        #expect(replay["APCA_API_KEY_ID"] == AppConfig.replayPlaceholderCredential)
        #expect(replay["APCA_API_SECRET_KEY"] == nil, "the file's secret is used, not replaced")
        #expect(replay["HOME"] == "/h")
    }
}
