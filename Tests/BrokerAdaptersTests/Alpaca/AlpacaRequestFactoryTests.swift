import Domain
import Foundation
import Networking
import Testing
@testable import BrokerAdapters

@Suite struct AlpacaRequestFactoryTests {
    let credentials = AlpacaCredentials(keyID: AlpacaFixtures.keyID, secretKey: AlpacaFixtures.secretKey)

    func factory(
        _ environment: ServiceEnvironment = .production, overrides: [String: URL] = [:], credentials: AlpacaCredentials? = nil
    ) -> AlpacaRequestFactory {
        let context = ServiceContext(
            environment: environment, baseURLOverrides: overrides,
            servicer: FixtureRoutesServicer.answering(status: 500, body: ""), userAgent: "commonbroker/test"
        )
        return AlpacaRequestFactory(context: context, credentials: credentials ?? self.credentials)
    }

    @Test func snapshotsRequest() throws {
        let request = try factory().snapshots(["AAPL", "MSFT"]).get()
        let sent = request.httpRequest
        #expect(sent.method == "GET")
        #expect(sent.url.absoluteString == "https://data.alpaca.markets/v2/stocks/snapshots?symbols=AAPL,MSFT&feed=iex")
        // The names as URLRequest on Linux sent them (`String.capitalized`), in the order they are written.
        #expect(sent.headerFields.map { "\($0.name): \($0.value)" } == [
            "Accept: application/json",
            "Apca-Api-Key-Id: test-key-id",
            "Apca-Api-Secret-Key: test-secret",
            "User-Agent: commonbroker/test",
        ])
        #expect(sent.headerFields["APCA-API-KEY-ID"] == "test-key-id")
        #expect(request.secretNames == ["APCA-API-KEY-ID", "APCA-API-SECRET-KEY"])
        #expect(request.credentialHint == "check APCA_API_KEY_ID and APCA_API_SECRET_KEY")
    }

    @Test func symbolsAreNormalizedAndSentOnceWithClassSharesAsAlpacaSpellsThem() throws {
        let request = try factory().snapshots(["aapl", "AAPL", "brk.b", "Msft"]).get()
        #expect(request.httpRequest.url.absoluteString == "https://data.alpaca.markets/v2/stocks/snapshots?symbols=AAPL,BRK.B,MSFT&feed=iex")
    }

    @Test func feedComesFromTheCredentials() throws {
        let sip = AlpacaCredentials(keyID: "k-id-1", secretKey: "s-key-1", feed: "sip")
        let request = try factory(credentials: sip).snapshots(["SPY"]).get()
        #expect(request.httpRequest.url.query == "symbols=SPY&feed=sip")
        #expect(request.httpRequest.headerFields["APCA-API-KEY-ID"] == "k-id-1")

        let planDefault = AlpacaCredentials(keyID: "k-id-1", secretKey: "s-key-1", feed: "")
        #expect(try factory(credentials: planDefault).snapshots(["SPY"]).get().httpRequest.url.query == "symbols=SPY")
    }

    @Test func accountRequestGoesToTheTradingAPI() throws {
        let request = try factory().account().get()
        #expect(request.httpRequest.method == "GET")
        #expect(request.httpRequest.url.absoluteString == "https://api.alpaca.markets/v2/account")
        #expect(request.httpRequest.headerFields["APCA-API-SECRET-KEY"] == "test-secret")
        #expect(request.httpRequest.headerFields["Accept"] == "application/json")
        #expect(request.secretNames == ["APCA-API-KEY-ID", "APCA-API-SECRET-KEY"])
    }

    @Test func sandboxUsesTheSandboxDataHostAndPaperTrading() throws {
        let sandbox = factory(.sandbox)
        #expect(try sandbox.snapshots(["AAPL"]).get().httpRequest.url.host == "data.sandbox.alpaca.markets")
        #expect(try sandbox.account().get().httpRequest.url.absoluteString == "https://paper-api.alpaca.markets/v2/account")
    }

    @Test func overridesAreKeyedSeparatelyForDataAndTrading() throws {
        let overridden = factory(overrides: [
            "alpaca": URL(string: "http://127.0.0.1:8123")!,
            "alpaca-trading": URL(string: "http://127.0.0.1:8124/prefix/")!,
        ])
        #expect(try overridden.snapshots(["AAPL"]).get().httpRequest.url.absoluteString
            == "http://127.0.0.1:8123/v2/stocks/snapshots?symbols=AAPL&feed=iex")
        #expect(try overridden.account().get().httpRequest.url.absoluteString == "http://127.0.0.1:8124/prefix/v2/account")
    }

    @Test func constructionErrors() {
        #expect(factory().snapshots([]).failure == .emptySymbolList)
        #expect(factory().snapshots(["AAPL", "AA PL"]).failure == .invalidSymbol("AA PL"))
        #expect(factory().snapshots(["AAPL", ""]).failure == .invalidSymbol(""))

        let noKey = AlpacaCredentials(keyID: nil, secretKey: "s")
        #expect(factory(credentials: noKey).snapshots(["AAPL"]).failure == .missingCredential(broker: "alpaca", variable: "APCA_API_KEY_ID"))
        let emptySecret = AlpacaCredentials(keyID: "k", secretKey: "")
        #expect(factory(credentials: emptySecret).account().failure == .missingCredential(broker: "alpaca", variable: "APCA_API_SECRET_KEY"))
        let none = AlpacaCredentials(keyID: nil, secretKey: nil, keyIDVariable: "MY_ID", secretKeyVariable: "MY_SECRET")
        #expect(factory(credentials: none).snapshots(["AAPL"]).failure == .missingCredential(broker: "alpaca", variable: "MY_ID and MY_SECRET"))

        let ftp = factory(overrides: ["alpaca": URL(string: "ftp://example.com")!, "alpaca-trading": URL(string: "file:///tmp")!])
        #expect(ftp.snapshots(["AAPL"]).failure == .badBaseURL("ftp://example.com"))
        #expect(ftp.account().failure == .badBaseURL("file:///tmp"))

        let unbuildable = AlpacaRequestFactory(baseURL: .failure(.badBaseURL("x")), tradingBaseURL: .failure(.badBaseURL("y")), credentials: credentials)
        #expect(unbuildable.snapshots(["AAPL"]).failure == .badBaseURL("x"))
        #expect(unbuildable.account().failure == .badBaseURL("y"))
    }

    @Test func missingCredentialTellsWhichVariablesToSet() {
        let error = factory(credentials: AlpacaCredentials(keyID: nil, secretKey: nil)).snapshots(["AAPL"]).failure
        #expect(error?.description == "alpaca: no credentials, set APCA_API_KEY_ID and APCA_API_SECRET_KEY")
        #expect(error?.brokerError == .unauthorized(hint: "set APCA_API_KEY_ID and APCA_API_SECRET_KEY"))
    }

    @Test func credentialsResolveFromTheEnvironmentWithExplicitValuesWinning() {
        let environment = ["APCA_API_KEY_ID": "env-id", "APCA_API_SECRET_KEY": "env-secret", "OTHER_ID": "other-id"]
        let fromEnvironment = AlpacaCredentials(keyID: nil, secretKey: "").resolved(from: environment)
        #expect(fromEnvironment.keyID == "env-id")
        #expect(fromEnvironment.secretKey == "env-secret")

        let explicit = AlpacaCredentials(keyID: "config-id", secretKey: nil, keyIDVariable: "OTHER_ID").resolved(from: environment)
        #expect(explicit.keyID == "config-id")
        #expect(explicit.secretKey == "env-secret")

        #expect(AlpacaCredentials(keyID: nil, secretKey: nil).resolved(from: [:]).missingVariable == "APCA_API_KEY_ID and APCA_API_SECRET_KEY")
    }

    @Test func printingCredentialsNeverShowsTheKeys() {
        let secret = AlpacaCredentials(keyID: "PKVISIBLEID", secretKey: "SUPERSECRETVALUE")
        var dumped = ""
        dump(secret, to: &dumped)
        for text in [secret.description, String(describing: secret), String(reflecting: secret), "\(secret)", dumped] {
            #expect(!text.contains("PKVISIBLEID"))
            #expect(!text.contains("SUPERSECRETVALUE"))
            #expect(text.contains("<redacted>"))
        }
    }
}

// fileprivate: other brokers' tests share this target and may want the same helper.
fileprivate extension Result {
    /// The failure, or nil on success.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
