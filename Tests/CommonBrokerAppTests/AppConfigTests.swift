import Domain
import Interactors
import TerminalKit
import TerminalUI
import Foundation
import Testing
@testable import CommonBrokerApp

@Suite struct AppConfigTests {
    private func load(_ text: String) -> Result<AppConfig, ConfigError> {
        AppConfig.load(contentsOf: text, path: "config.json")
    }

    private func message(_ text: String) -> String {
        switch load(text) {
        case .success: "loaded without error"
        case .failure(let error): error.description
        }
    }

    // MARK: Valid files

    @Test func exampleFileAtTheRepositoryRootLoads() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("config.example.json").path
        let config = try AppConfig.load(from: path).get()
        // The example spells out the defaults, so loading it must give exactly the defaults.
        #expect(config == AppConfig.default)
        #expect(config.symbols == ["AAPL", "MSFT", "NVDA"])
        #expect(config.brokers.demo == AppConfig.DemoSection(enabled: false, seed: 42, tickIntervalMilliseconds: 500))
    }

    @Test func exampleFileDocumentsEveryKey() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("config.example.json"), encoding: .utf8)
        let document = try JSONDocument.parse(text, path: "config.example.json", repeatableKeyPrefix: "//").get()
        let keys = { (value: JSONValue?) in Set((value?.objectMembers ?? []).map(\.key).filter { !$0.hasPrefix("//") }) }
        #expect(keys(document.root) == Set(AppConfig.topLevelKeys))
        // Colors and keys are empty in the example (the defaults); their comments name every role and action.
        let comments = { (value: JSONValue?) in Set((value?.objectMembers ?? []).map(\.key).filter { $0.hasPrefix("//") }.map { String($0.dropFirst(2)) }) }
        #expect(comments(document.root["colors"]) == Set(ColorRole.allCases.map(\.rawValue)))
        #expect(comments(document.root["keys"]) == Set(KeyBindings.standard.names))
        #expect(keys(document.root["brokers"]) == Set(AppConfig.Brokers.validKeys))
        #expect(keys(document.root["brokers"]?["demo"]) == Set(AppConfig.DemoSection.validKeys))
        for schema in AppConfig.BrokerSchema.all {
            #expect(keys(document.root["brokers"]?[schema.id]) == Set(schema.validKeys), "brokers.\(schema.id)")
        }
        #expect(keys(document.root["trading"]) == Set(AppConfig.Trading.validKeys))
        #expect(keys(document.root["paper"]) == Set(AppConfig.Paper.validKeys))
        #expect(keys(document.root["alerts"]) == Set(AppConfig.Alerts.validKeys))
        // The bus is off in the example (null); its comments name every key it takes.
        let busComments = (document.root.objectMembers ?? []).filter { $0.key == "//bus" }.compactMap(\.value.stringValue).joined(separator: " ")
        for key in AppConfig.Bus.validKeys {
            #expect(busComments.contains(key), "the //bus comments should document \(key)")
        }
    }

    @Test func busSection() throws {
        #expect(AppConfig.default.bus == nil, "no bus unless the config has one")
        let config = try load(#"{"bus": {"url": ["nats://a:4222", "tls://b:4222"], "bucket": "desk-1", "role": "follower", "replicas": 3, "leaseSeconds": 9, "token": "s3cret"}}"#).get()
        let bus = try #require(config.bus)
        #expect(bus.urls == ["nats://a:4222", "tls://b:4222"])
        #expect(bus.bucket == "desk-1")
        #expect(bus.role == .follower)
        #expect(bus.replicas == 3)
        let settings = bus.settings(environment: [:])
        #expect(settings.lease.timeToLive == .seconds(9))
        #expect(settings.lease.renewEvery == .seconds(3))
        #expect(settings.credentials == .token("s3cret"))
        #expect(!String(describing: bus).contains("s3cret"), "a printed config hides the secret")
        // The environment wins over the file, as for brokers.
        let fromEnvironment = bus.settings(environment: ["COMMONBROKER_BUS_USER": "desk", "COMMONBROKER_BUS_PASSWORD": "pw", "COMMONBROKER_BUS_TOKEN": ""])
        #expect(fromEnvironment.credentials == .token("s3cret"), "an empty variable does not override the file")
        let single = try #require(try load(#"{"bus": {"url": "nats://127.0.0.1:4222"}}"#).get().bus)
        #expect(single.urls == ["nats://127.0.0.1:4222"])
        #expect(single.role == .auto)
        #expect(single.bucket == "commonbroker")
        #expect(single.settings(environment: ["COMMONBROKER_BUS_USER": "desk", "COMMONBROKER_BUS_PASSWORD": "pw"]).credentials == .userPassword(user: "desk", password: "pw"))
        #expect(try load(#"{"bus": null}"#).get().bus == nil)

        #expect(message(#"{"bus": {}}"#).contains("has no \"url\""))
        // Not echoed: a server URL may carry a user and password.
        #expect(message(#"{"bus": {"url": "http://u:pw@x:4222"}}"#) == #"config.json:1:17: "bus.url" is not a NATS server URL; write nats://host:port or tls://host:port"#)
        #expect(message(#"{"bus": {"url": []}}"#).contains("is an empty list"))
        #expect(message(#"{"bus": {"url": "nats://x", "bucket": "a.b"}}"#).contains("\"bus.bucket\""))
        #expect(message(#"{"bus": {"url": "nats://x", "role": "boss"}}"#).contains("\"bus.role\" must be one of"))
        #expect(message(#"{"bus": {"url": "nats://x", "leaseSeconds": 1}}"#).contains("between 2 and 300"))
        #expect(message(#"{"bus": {"url": "nats://x", "token": ""}}"#).contains("is empty"))
        #expect(message(#"{"bus": {"url": "nats://x", "lease": 5}}"#).contains("leaseSeconds"), "a near miss suggests the key")
    }

    @Test func tradingAndPaperSections() throws {
        #expect(!AppConfig.default.trading.allowLive, "live orders only when the user writes it")
        let config = try load(#"{"trading": {"allowLive": true}, "paper": {"source": "tradier", "startingCash": "2500.50", "commissionPerShare": 0.005, "minimumCommission": 1, "allowShort": true}}"#).get()
        #expect(config.trading.allowLive)
        #expect(config.paper.source == "tradier")
        #expect(config.paper.startingCash == ExactDecimal(parsing: "2500.5"))
        #expect(config.paper.commissionPerShare == ExactDecimal(parsing: "0.005"), "read from the text, not through a Double")
        #expect(config.paper.minimumCommission == 1)
        #expect(config.paper.allowShort)
        #expect(message(#"{"paper": {"startingCash": "lots"}}"#)
            == #"config.json:1:28: "paper.startingCash" must be a decimal number such as 100000 or 0.005, found lots"#)
        #expect(message(#"{"paper": {"commissionPerShare": -1}}"#)
            == #"config.json:1:34: "paper.commissionPerShare" must be between 0 and 1000, found -1"#)
        #expect(message(#"{"paper": {"cash": 5}}"#).contains("startingCash"), "a near miss suggests the key")
    }

    @Test func emptyObjectGivesTheDefaults() throws {
        #expect(try load("{}").get() == AppConfig.default)
        #expect(!AppConfig.default.brokers.demo.enabled, "the demo joins real brokers only when asked")
        #expect(AppConfig.default.brokers.enabled.isEmpty)
        #expect(AppConfig.default.staleAfter == .seconds(30))
        #expect(AppConfig.default.highlightDuration == .milliseconds(1000))
    }

    @Test func everyKeyIsRead() throws {
        let text = """
        {
          "symbols": ["aapl", "brk.b", "^GSPC"],
          "staleAfterSeconds": 90,
          "highlightMilliseconds": 0,
          "color": false,
          "theme": { "up": "blue", "down": "yellow" },
          "brokers": {
            "demo": { "enabled": false, "seed": null, "tickIntervalMs": 250 },
            "tradier": { "enabled": true, "environment": "sandbox", "baseURL": "http://127.0.0.1:8080/v1",
                         "pollIntervalSeconds": 2, "token": "abc", "tokenEnv": "MY_TRADIER" },
            "alpaca": { "enabled": true, "keyId": "id", "secretKeyEnv": "ALPACA_SECRET", "feed": "sip" },
            "finnhub": { "enabled": false, "token": null },
            "polygon": { "pollIntervalSeconds": 60, "apiKeyEnv": "POLY" }
          }
        }
        """
        let config = try load(text).get()
        #expect(config.symbols == ["AAPL", "BRK.B", "^GSPC"])
        #expect(config.staleAfterSeconds == 90)
        #expect(config.highlightMilliseconds == 0)
        #expect(config.color == false)
        #expect(config.theme == AppConfig.Theme(colors: [.up: .basic(.blue), .down: .basic(.yellow)]))
        #expect(config.brokers.demo == AppConfig.DemoSection(enabled: false, seed: nil, tickIntervalMilliseconds: 250))

        let tradier = config.brokers.tradier
        #expect(tradier.enabled && tradier.environment == .sandbox)
        #expect(tradier.baseURL == URL(string: "http://127.0.0.1:8080/v1"))
        #expect(tradier.pollInterval == .seconds(2))
        #expect(tradier.credential("token") == AppConfig.Credential(key: "token", value: "abc", environmentVariable: "MY_TRADIER"))

        let alpaca = config.brokers.alpaca
        #expect(alpaca.credential("keyId")?.value == "id")
        #expect(alpaca.credential("keyId")?.environmentVariable == "APCA_API_KEY_ID")
        #expect(alpaca.credential("secretKey") == AppConfig.Credential(key: "secretKey", environmentVariable: "ALPACA_SECRET"))
        #expect(alpaca.choice("feed") == "sip")
        #expect(AppConfig.default.brokers.alpaca.choice("feed") == "iex")

        #expect(config.brokers.finnhub == AppConfig.BrokerSection(defaultsFor: .finnhub))
        #expect(config.brokers.polygon.pollIntervalSeconds == 60)
        #expect(config.brokers.polygon.credential("apiKey")?.environmentVariable == "POLY")
        #expect(config.brokers.enabled.map(\.id) == ["tradier", "alpaca"])
        #expect(config.brokers[id: "polygon"] == config.brokers.polygon)
        #expect(config.brokers[id: "nope"] == nil)
    }

    @Test func commentKeysAreIgnoredEverywhere() throws {
        let text = """
        {
          "//": "top", "//": ["repeated", "fine"],
          "theme": { "//up": 1, "up": "cyan" },
          "brokers": { "// later": {}, "tradier": { "//token": { "any": "thing" }, "enabled": true } }
        }
        """
        let config = try load(text).get()
        #expect(config.theme.colors[.up] == .basic(.cyan))
        #expect(config.brokers.tradier.enabled)
    }

    @Test func wholeNumbersMayBeWrittenAsDecimals() throws {
        #expect(try load(#"{"staleAfterSeconds": 4.0e1}"#).get().staleAfterSeconds == 40)
        #expect(try load(#"{"brokers": {"demo": {"seed": 18446744073709551615}}}"#).get().brokers.demo.seed == UInt64.max)
    }

    // MARK: Errors

    @Test func syntaxErrorsKeepTheirPosition() {
        let error = load("{\n  \"color\": true\n  \"theme\": {}\n}")
        guard case .failure(.syntax(let syntax)) = error else {
            Issue.record("expected a syntax error, got \(error)")
            return
        }
        #expect(syntax.position == SourcePosition(line: 3, column: 3))
        #expect(message("{\"color\": true, \"color\": false}") == "config.json:1:17: duplicate key \"color\" (first defined at 1:2); remove one of them")
    }

    @Test func unknownTopLevelKey() {
        let text = """
        {
          "symbols": [],
          "colour": false
        }
        """
        #expect(message(text) == "config.json:3:3: unknown key \"colour\"; did you mean \"color\"? expected one of: symbols, staleAfterSeconds, highlightMilliseconds, color, theme, colors, keys, mouse, tls, brokers, trading, paper, bus, alerts, columns, sparklineMinutes, crossBroker")
        #expect(load(text).failureValue?.keyPath == "colour")
        #expect(load(text).failureValue?.position == SourcePosition(line: 3, column: 3))
    }

    @Test func unknownNestedKeyNamesItsPath() {
        let text = """
        {
          "brokers": {
            "demo": {
              "enabled": true,
              "tickMs": 100
            }
          }
        }
        """
        #expect(message(text) == "config.json:5:7: unknown key \"brokers.demo.tickMs\"; expected one of: enabled, seed, tickIntervalMs, staleAfterSeconds")
        #expect(message(#"{"brokers": {"etrade": {}}}"#) == "config.json:1:14: unknown key \"brokers.etrade\"; expected one of: demo, tradier, alpaca, finnhub, polygon")
        #expect(message(#"{"brokers": {"tradier": {"tokenENV": "X"}}}"#) == "config.json:1:26: unknown key \"brokers.tradier.tokenENV\"; did you mean \"tokenEnv\"? expected one of: enabled, environment, baseURL, stream, streamURL, pollIntervalSeconds, token, tokenEnv")
    }

    @Test func streamsAreOnByDefaultExceptPolygonsFreePlan() throws {
        let config = try load("{}").get()
        #expect(config.brokers.tradier.stream == true)
        #expect(config.brokers.alpaca.stream == true)
        #expect(config.brokers.finnhub.stream == true)
        #expect(config.brokers.polygon.stream == false)
        let custom = try load(#"{"brokers": {"polygon": {"stream": true, "streamURL": "ws://127.0.0.1:9000/stocks"}}}"#).get()
        #expect(custom.brokers.polygon.stream == true)
        #expect(custom.brokers.polygon.streamURL == URL(string: "ws://127.0.0.1:9000/stocks"))
    }

    @Test func streamURLMustBeAWebSocketURL() {
        #expect(message(#"{"brokers": {"finnhub": {"streamURL": "https://ws.finnhub.io"}}}"#)
            == #"config.json:1:39: "brokers.finnhub.streamURL" must be a ws or wss URL such as "wss://stream.example.com/v1", found "https://ws.finnhub.io""#)
        #expect(message(#"{"brokers": {"finnhub": {"stream": "yes"}}}"#) == #"config.json:1:36: "brokers.finnhub.stream" must be true or false, found string"#)
    }

    @Test func tlsSettings() throws {
        #expect(try load("{}").get().tls == AppConfig.TLS())
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString).pem")
        try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let config = try load(#"{"tls": {"caFile": "\#(file.path)", "insecureSkipVerify": true}}"#).get()
        #expect(config.tls == AppConfig.TLS(caFile: file.path, insecureSkipVerify: true))
        #expect(message(#"{"tls": {"caFile": "/nonexistent/ca.pem"}}"#)
            == #"config.json:1:20: "tls.caFile" names no readable file (/nonexistent/ca.pem); give the path of a PEM file of CA certificates, or null"#)
        #expect(message(#"{"tls": {"verify": false}}"#).contains("unknown key \"tls.verify\"") == true)
    }

    @Test func wrongTypes() {
        #expect(message(#"{"staleAfterSeconds": "30"}"#) == "config.json:1:23: \"staleAfterSeconds\" must be a number, found string")
        #expect(message(#"{"color": "no"}"#) == "config.json:1:11: \"color\" must be true or false, found string")
        #expect(message(#"{"theme": ["green"]}"#) == "config.json:1:11: \"theme\" must be a theme name (\"dark\", \"light\", \"high-contrast\", \"mono\"), found array")
        #expect(message(#"{"symbols": "AAPL"}"#) == "config.json:1:13: \"symbols\" must be an array of symbols such as [\"AAPL\", \"MSFT\"], found string")
        #expect(message(#"{"symbols": ["AAPL", 7]}"#) == "config.json:1:22: \"symbols[1]\" must be a string, found number")
        #expect(message(#"{"brokers": {"tradier": {"enabled": null}}}"#) == "config.json:1:37: \"brokers.tradier.enabled\" must be true or false, found null")
        #expect(message(#"{"brokers": {"demo": {"seed": "x"}}}"#) == "config.json:1:31: \"brokers.demo.seed\" must be a number or null, found string")
        #expect(message("[]") == "config.json:1:1: the top level must be an object, found array")
    }

    @Test func outOfRangeValues() {
        #expect(message(#"{"staleAfterSeconds": 0}"#) == "config.json:1:23: \"staleAfterSeconds\" must be between 1 and 86400, found 0")
        #expect(message(#"{"staleAfterSeconds": 2.5}"#) == "config.json:1:23: \"staleAfterSeconds\" must be a whole number, found 2.5")
        #expect(message(#"{"highlightMilliseconds": -1}"#) == "config.json:1:27: \"highlightMilliseconds\" must be between 0 and 10000, found -1")
        #expect(message(#"{"brokers": {"polygon": {"pollIntervalSeconds": 0}}}"#) == "config.json:1:49: \"brokers.polygon.pollIntervalSeconds\" must be between 1 and 3600, found 0")
        #expect(message(#"{"brokers": {"demo": {"tickIntervalMs": 5}}}"#) == "config.json:1:41: \"brokers.demo.tickIntervalMs\" must be between 10 and 60000, found 5")
        #expect(message(#"{"brokers": {"demo": {"seed": -1}}}"#) == "config.json:1:31: \"brokers.demo.seed\" must be a whole number from 0 to 18446744073709551615, found -1")
    }

    @Test func invalidChoices() {
        #expect(message(#"{"theme": {"up": "grean"}}"#) == "config.json:1:18: \"theme.up\" must be one of \"black\", \"red\", \"green\", \"yellow\", \"blue\", \"magenta\", \"cyan\", \"white\", found \"grean\" (did you mean \"green\"?)")
        #expect(message(#"{"brokers": {"finnhub": {"environment": "sandbox"}}}"#) == "config.json:1:41: \"brokers.finnhub.environment\" must be \"production\", found \"sandbox\"")
        #expect(message(#"{"brokers": {"tradier": {"environment": "paper"}}}"#) == "config.json:1:41: \"brokers.tradier.environment\" must be one of \"production\", \"sandbox\", found \"paper\"")
        #expect(message(#"{"brokers": {"alpaca": {"feed": "IEX"}}}"#).hasPrefix("config.json:1:33: \"brokers.alpaca.feed\" must be one of \"iex\", \"sip\""))
    }

    @Test func baseURLMustBeHTTP() {
        #expect(message(#"{"brokers": {"tradier": {"baseURL": "ftp://x.example"}}}"#) == "config.json:1:37: \"brokers.tradier.baseURL\" must be an http or https URL such as \"https://api.example.com\", found \"ftp://x.example\"")
        #expect(message(#"{"brokers": {"tradier": {"baseURL": "api.tradier.com"}}}"#).contains("must be an http or https URL"))
        #expect(message(#"{"brokers": {"tradier": {"baseURL": 1}}}"#).hasSuffix("\"brokers.tradier.baseURL\" must be a string, found number"))
    }

    @Test func invalidSymbolIsNamedWithItsPosition() {
        let text = """
        {
          "symbols": ["AAPL", "BRK B"]
        }
        """
        #expect(message(text) == "config.json:2:23: \"symbols[1]\" is not a valid symbol: BRK B contains a space; use letters, digits, . - / ^")
        #expect(message(#"{"symbols": [""]}"#) == "config.json:1:14: \"symbols[0]\" is not a valid symbol: empty symbol")
        #expect(message(#"{"symbols": ["aapl", "AAPL"]}"#) == "config.json:1:22: \"symbols[1]\" repeats AAPL (already symbols[0]); list each symbol once")
    }

    @Test func credentialErrorsNeverEchoTheSecret() {
        let padded = message(#"{"brokers": {"tradier": {"token": " s3cret"}}}"#)
        #expect(padded == "config.json:1:35: \"brokers.tradier.token\" starts or ends with whitespace; paste the credential without it")
        #expect(!padded.contains("s3cret"))
        #expect(message(#"{"brokers": {"tradier": {"token": ""}}}"#).contains("is empty; write the credential, or null"))
        #expect(message(#"{"brokers": {"tradier": {"token": 123}}}"#).hasSuffix("must be a string or null, found number"))
        #expect(message(#"{"brokers": {"tradier": {"tokenEnv": "MY-TOKEN"}}}"#) == "config.json:1:38: \"brokers.tradier.tokenEnv\" must be an environment variable name (letters, digits and _, not starting with a digit), found \"MY-TOKEN\"")
        #expect(message(#"{"brokers": {"tradier": {"tokenEnv": "1X"}}}"#).contains("must be an environment variable name"))
    }

    @Test func credentialsResolveFromEnvironmentFirst() throws {
        let config = try load(#"{"brokers": {"tradier": {"token": "from-file"}}}"#).get()
        let token = try #require(config.brokers.tradier.credential("token"))
        #expect(token.resolved(in: [:]) == "from-file")
        #expect(token.resolved(in: ["TRADIER_TOKEN": ""]) == "from-file")
        #expect(token.resolved(in: ["TRADIER_TOKEN": "from-env"]) == "from-env")
        #expect(!String(describing: config).contains("from-file"))
        #expect(!"\(token)".contains("from-file"))
        var dumped = ""
        dump(config, to: &dumped)
        #expect(dumped.contains("<hidden>") && !dumped.contains("from-file"))
        #expect(AppConfig.default.brokers.alpaca.missingCredentials(in: ["APCA_API_KEY_ID": "k"]).map(\.key) == ["secretKey"])
        #expect(config.credentialKeyPathsInFile == ["brokers.tradier.token"])
    }

    @Test func colorHonoursOptionAndNoColor() {
        let config = AppConfig.default
        #expect(config.usesColor(noColorOption: false, environment: [:]))
        #expect(config.usesColor(noColorOption: false, environment: ["NO_COLOR": ""]))
        #expect(!config.usesColor(noColorOption: false, environment: ["NO_COLOR": "1"]))
        #expect(!config.usesColor(noColorOption: true, environment: [:]))
        var plain = config
        plain.color = false
        #expect(!plain.usesColor(noColorOption: false, environment: [:]))
    }

    // MARK: Files

    @Test func missingFileIsItsOwnError() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/absent.json"
        #expect(AppConfig.load(from: path).failureValue == .fileNotFound(path: path))
        #expect(ConfigError.fileNotFound(path: path).description.hasPrefix("config file not found: \(path);"))
    }

    @Test func missingExplicitFileIsAnErrorButMissingDefaultIsNot() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/config.json"
        let explicit = AppPaths(configFile: path, configFileIsExplicit: true, stateDirectory: directory.path)
        let implicit = AppPaths(configFile: path, configFileIsExplicit: false, stateDirectory: directory.path)
        #expect(AppConfig.load(using: explicit).failureValue == .fileNotFound(path: path))
        #expect(try AppConfig.load(using: implicit).get() == .default)

        _ = try directory.file("config.json", contents: #"{"color": 1}"#)
        #expect(AppConfig.load(using: implicit).failureValue?.description == "\(path):1:11: \"color\" must be true or false, found number")
    }

    @Test func fileErrorsSayWhatIsWrong() throws {
        let directory = try TemporaryDirectory()
        #expect(AppConfig.load(from: directory.path).failureValue?.description.contains("it is a directory") == true)
        let latin1 = directory.path + "/latin1.json"
        try Data([0x7B, 0x0A, 0x22, 0xE9, 0x22, 0x7D]).write(to: URL(fileURLWithPath: latin1))
        #expect(AppConfig.load(from: latin1).failureValue == .unreadable(path: latin1, reason: "it is not UTF-8 text (invalid byte at 2:2); save it as UTF-8"))
        let good = try directory.file("good.json", contents: "\u{FEFF}{\"staleAfterSeconds\": 5}\n")
        #expect(try AppConfig.load(from: good).get().staleAfterSeconds == 5)
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
