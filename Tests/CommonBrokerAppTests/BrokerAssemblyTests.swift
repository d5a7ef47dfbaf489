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
}
