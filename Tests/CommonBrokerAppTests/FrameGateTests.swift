@testable import CommonBrokerApp
import Domain
import Foundation
import TerminalUI
import Testing

/// Between the frames and the runtime: quotes for rows off the screen ask for no frame, but only once
/// the frame that says what is on screen has been drawn.
@Suite struct FrameGateTests {
    let now = Date(timeIntervalSince1970: 1_763_900_000)

    func update(_ symbol: String) -> MarketUpdate {
        MarketUpdate(quotes: [QuoteKey(brandID: "alpha", symbol: symbol): CommonQuote(symbol: symbol, last: 1, timestamp: now)])
    }

    @Test func beforeAnyFrameAndWhileOneIsDrawnEveryQuoteAsksForAFrame() {
        let gate = FrameGate()
        #expect(gate.needsFrame(for: update("ZZZZ"), at: now))
        gate.frameDrew(RowsOnScreen(symbols: ["AAPL"], flashEnds: nil))
        #expect(!gate.needsFrame(for: update("ZZZZ"), at: now))
        #expect(gate.needsFrame(for: update("AAPL"), at: now))
        // The next frame has taken its view: what it will show is not known yet.
        gate.frameBegins()
        #expect(gate.needsFrame(for: update("ZZZZ"), at: now))
        // A screen in front of the table: every quote may show.
        gate.frameDrew(nil)
        #expect(gate.needsFrame(for: update("ZZZZ"), at: now))
    }
}

/// The interactive app's tick: just after each whole second.
@Suite struct TickDelayTests {
    /// Within a microsecond: the instants are doubles of about 1.8e9 seconds.
    func delay(at fraction: Double) -> Duration {
        InteractiveCommand.tickDelay(from: Date(timeIntervalSince1970: 1_763_900_000 + fraction))
    }

    func isNear(_ delay: Duration, _ expected: Duration) -> Bool {
        delay > expected - .microseconds(1) && delay < expected + .microseconds(1)
    }

    @Test func theTickComesJustAfterTheNextWholeSecond() {
        #expect(isNear(delay(at: 0.25), .milliseconds(755)))
        #expect(isNear(delay(at: 0), .milliseconds(1_005)))
        #expect(isNear(delay(at: 0.95), .milliseconds(55)))
    }
}
