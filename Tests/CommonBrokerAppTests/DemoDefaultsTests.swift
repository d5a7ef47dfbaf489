import BrokerAdapters
import Testing
@testable import CommonBrokerApp

/// The demo's defaults make Gamma Flaky's outages visible: each lasts longer than the demo's stale
/// threshold at the default tick, so its rows show the stale mark while it reconnects.
@Suite struct DemoDefaultsTests {
    @Test func gammasShortestOutageOutlastsTheDemoStaleThreshold() throws {
        let demo = AppConfig.DemoSection()
        let plan = try #require(DemoBrokerProfile.gamma.outages)
        #expect(plan.downTicks.lowerBound * demo.tickIntervalMilliseconds > demo.staleAfterSeconds * 1000)
        #expect(demo.staleAfterSeconds < AppConfig.default.staleAfterSeconds)
    }

    @Test func demoStaleThresholdIsReadAndChecked() throws {
        let config = try AppConfig.load(contentsOf: #"{"brokers": {"demo": {"staleAfterSeconds": 9}}}"#, path: "c.json").get()
        #expect(config.brokers.demo.staleAfterSeconds == 9)
        #expect(throws: (any Error).self) {
            try AppConfig.load(contentsOf: #"{"brokers": {"demo": {"staleAfterSeconds": 0}}}"#, path: "c.json").get()
        }
    }
}
