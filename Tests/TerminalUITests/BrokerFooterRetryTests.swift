import Domain
import Foundation
import Interactors
import Testing
import TerminalKit
@testable import TerminalUI

/// What the footer says while a polled broker waits to retry, and its colour.
@Suite struct BrokerFooterRetryTests {
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    @Test func aRateLimitCountsDownToTheRetry() {
        let state = BrokerConnectionState.retrying(at: now.addingTimeInterval(36), after: .rateLimited(retryAfter: 36))
        #expect(BrokerFooter.describe(state, now: now) == "rate limited, retry in 36s")
        #expect(BrokerFooter.describe(state, now: now.addingTimeInterval(11.5)) == "rate limited, retry in 25s")
        #expect(BrokerFooter.describe(state, now: now.addingTimeInterval(36)) == "rate limited, retry in 0s")
        #expect(BrokerFooter.describe(state, now: now.addingTimeInterval(90)) == "rate limited, retry in 0s")
    }

    @Test func otherFailuresSayWhyTheBrokerRetries() {
        let retry = now.addingTimeInterval(2)
        #expect(BrokerFooter.describe(.retrying(at: retry, after: .server(status: 500)), now: now) == "retrying: server error 500")
        #expect(BrokerFooter.describe(.retrying(at: retry, after: .network("reset")), now: now) == "retrying: network error")
        #expect(BrokerFooter.describe(.retrying(at: retry, after: .badResponse("\u{1B}[2J")), now: now) == "retrying: bad response")
    }

    @Test func retryingIsYellowLikeAReconnect() {
        let palette = Palette(RenderOptions())
        let retrying = BrokerConnectionState.retrying(at: now, after: .rateLimited(retryAfter: 1))
        #expect(palette.connection(retrying) == palette.connection(.reconnecting(attempt: 1, reason: "")))
        #expect(palette.connection(retrying).foreground == .yellow)
    }

    /// The screen passes its `now` to the footer, so the count-down moves with the clock.
    @Test func theScreensFooterCountsDownWithTheClock() {
        typealias F = WatchlistFixture
        let brokers = [
            BrokerStatus(branding: F.alpha, state: .live),
            BrokerStatus(branding: F.beta, state: .retrying(at: F.now.addingTimeInterval(36), after: .rateLimited(retryAfter: 36))),
        ]
        let state = F.state(brokers: brokers)
        let footer = { (now: Date) in
            WatchlistScreen.render(state, size: ScreenSize(columns: 100, rows: 30), now: now, options: F.utc).lines.last ?? ""
        }
        #expect(footer(F.now).contains("rate limited, retry in 36s"))
        #expect(footer(F.now.addingTimeInterval(30)).contains("rate limited, retry in 6s"))
    }
}
