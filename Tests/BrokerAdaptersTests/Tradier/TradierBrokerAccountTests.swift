import BrokerAdapters
import Domain
import Foundation
import Networking
import Testing

/// Balances and the credential check against routes.json through the stub servicer.
@Suite struct TradierBrokerAccountTests {
    func broker(_ servicer: FixtureRoutesServicer, token: String? = "test-token") -> TradierBroker {
        TradierBroker(context: ServiceContext(servicer: servicer), credentials: TradierCredentials(token: token))
    }

    @Test func oneMarginAccount() async throws {
        let servicer = try FixtureRoutesServicer(broker: "tradier")
        let balances = try await broker(servicer).balances()
        #expect(balances == [AccountBalance(accountID: "6YA05708", cash: exactDecimal("14930.36"), buyingPower: exactDecimal("12893.21"), equity: exactDecimal("17798.36"))])
        #expect(servicer.sent.map(\.url) == [
            "https://api.tradier.com/v1/user/profile", "https://api.tradier.com/v1/accounts/6YA05708/balances",
        ])
    }

    @Test func marginAndCashAccountsInProfileOrder() async throws {
        let balances = try await broker(try FixtureRoutesServicer(broker: "tradier"), token: "test-token-2").balances()
        #expect(balances == [
            AccountBalance(accountID: "6YA05708", cash: exactDecimal("14930.36"), buyingPower: exactDecimal("12893.21"), equity: exactDecimal("17798.36")),
            AccountBalance(accountID: "6YA05709", cash: exactDecimal("3985.2"), buyingPower: exactDecimal("3741.06"), equity: exactDecimal("5120.44")),
        ])
    }

    @Test func noAccountsNoBalances() async throws {
        let servicer = FixtureRoutesServicer { _ throws(BrokerError) in
            HTTPResponse(status: 200, body: Data(#"{"profile":{"id":"id-new","name":"NEW USER","account":"null"}}"#.utf8))
        }
        #expect(try await broker(servicer).balances().isEmpty)
        #expect(servicer.sent.count == 1)
    }

    @Test func aFailedBalanceFailsTheCall() async throws {
        let servicer = FixtureRoutesServicer { request throws(BrokerError) in
            if request.url.path == "/v1/user/profile" {
                return HTTPResponse(status: 200, body: try! TradierFixtures.data("profile-two-accounts.json"))
            }
            if request.url.path.contains("6YA05709") { return HTTPResponse(status: 500) }
            return HTTPResponse(status: 200, body: try! TradierFixtures.data("balances-margin.json"))
        }
        await #expect(throws: BrokerError.server(status: 500)) { try await broker(servicer).balances() }
    }

    @Test func rejectedTokenForAccounts() async throws {
        await #expect(throws: BrokerError.unauthorized(hint: "check TRADIER_TOKEN")) {
            try await broker(try FixtureRoutesServicer(broker: "tradier"), token: "nope").balances()
        }
    }

    @Test func validateCredentialsNamesTheUser() async throws {
        let servicer = try FixtureRoutesServicer(broker: "tradier")
        #expect(try await broker(servicer).validateCredentials() == "JANE DOE")
        #expect(servicer.sent.map(\.url) == ["https://api.tradier.com/v1/user/profile"])
        await #expect(throws: BrokerError.unauthorized(hint: "check TRADIER_TOKEN")) {
            try await broker(servicer, token: "nope").validateCredentials()
        }
        await #expect(throws: BrokerError.unauthorized(hint: "set TRADIER_TOKEN")) {
            try await broker(servicer, token: nil).validateCredentials()
        }
    }

    @Test func aNamelessProfileFallsBackToItsId() async throws {
        let servicer = FixtureRoutesServicer { _ throws(BrokerError) in
            HTTPResponse(status: 200, body: Data(#"{"profile":{"id":"id-jdoe42","name":" "}}"#.utf8))
        }
        #expect(try await broker(servicer).validateCredentials() == "id-jdoe42")
    }
}
