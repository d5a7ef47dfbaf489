import BrokerAdapters
import Domain
import Foundation
import Networking
import Testing

@Suite struct LiveTradingGuardTests {
    func liveTradingGuard(_ environment: ServiceEnvironment, _ liveTrading: LiveTrading = .notAllowed) -> LiveTradingGuard {
        LiveTradingGuard(brokerID: "alpaca", environment: environment, liveTrading: liveTrading, liveHosts: ["API.alpaca.markets"])
    }

    func refusal(_ liveTradingGuard: LiveTradingGuard, _ url: String?) -> BrokerError? {
        do throws(BrokerError) {
            try liveTradingGuard.permit(url.flatMap(URL.init(string:)))
            return nil
        } catch {
            return error
        }
    }

    @Test func sandboxOrdersGoOutLiveOnesOnlyWhenAllowed() {
        let refused = BrokerError.liveTradingNotAllowed(broker: "alpaca")
        #expect(refusal(liveTradingGuard(.sandbox), "https://paper-api.alpaca.markets/v2/orders") == nil)
        #expect(refusal(liveTradingGuard(.sandbox), "http://127.0.0.1:8123/v2/orders") == nil)
        #expect(refusal(liveTradingGuard(.production), "https://api.alpaca.markets/v2/orders") == refused)
        // Production through an override (a proxy, a recording) is still production.
        #expect(refusal(liveTradingGuard(.production), "http://127.0.0.1:8123/v2/orders") == refused)
        // A sandbox run whose override names the live host, in any case.
        #expect(refusal(liveTradingGuard(.sandbox), "https://api.ALPACA.markets/v2/orders") == refused)
        // A URL whose host cannot be told is treated as live.
        #expect(refusal(liveTradingGuard(.sandbox), nil) == refused)
        #expect(refusal(liveTradingGuard(.sandbox), "file:///v2/orders") == refused)

        #expect(refusal(liveTradingGuard(.production, .allowed), "https://api.alpaca.markets/v2/orders") == nil)
        #expect(refusal(liveTradingGuard(.sandbox, .allowed), "https://api.alpaca.markets/v2/orders") == nil)
    }

    @Test func theConfigWordsMapOntoTheValue() {
        #expect(LiveTrading(allowLive: true) == .allowed)
        #expect(LiveTrading(allowLive: false) == .notAllowed)
    }

    @Test func theRefusalSaysWhatToDo() {
        let refusal = BrokerError.liveTradingNotAllowed(broker: "tradier")
        #expect(refusal.shortReason == "live trading not allowed")
        #expect(refusal.description == #"tradier: not sent, this order would trade real money and live trading is off; use the paper or sandbox environment, or set "trading": {"allowLive": true} in the config to trade live"#)
        #expect(refusal.isPermanent)
    }
}
