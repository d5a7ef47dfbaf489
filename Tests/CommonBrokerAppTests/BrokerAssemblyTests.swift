import Foundation
import Testing
@testable import CommonBrokerApp

@Suite struct BrokerAssemblyTests {
    @Test func anUnencryptedStreamToAnotherMachineIsAWarningButLoopbackIsNot() {
        let remote = BrokerAssembly.unencryptedWarning(URL(string: "ws://stream.example.com/v2/iex")!, broker: "alpaca")
        #expect(remote == "alpaca's stream stream.example.com is unencrypted (ws://): its credentials cross the network in clear text; use wss://")
        for url in ["ws://127.0.0.1:9000/stocks", "ws://localhost:9000/", "ws://[::1]:9000/", "wss://stream.example.com/v2/iex"] {
            #expect(BrokerAssembly.unencryptedWarning(URL(string: url)!, broker: "alpaca") == nil, "\(url)")
        }
    }

    /// Polygon counts 5 requests a minute: the broker's one gate may spend them at once (a start-up snapshot
    /// of a few symbols need not take a minute), and its limiter never grants a sixth within 60 s.
    @Test func polygonsGateHasTheMinutesWholeBudgetAsItsBurst() {
        let section = AppConfig.BrokerSection(defaultsFor: .polygon)
        let settings = BrokerAssembly.pollingSettings(for: "polygon", section: section, environment: .production)
        #expect(settings.requestsPerMinute == 5 && settings.burst == 5 && settings.maxSymbolsPerRequest == 1)
    }
}
