import Domain
import Foundation
import Interactors
import Testing

private func price(_ text: String) -> ExactDecimal {
    guard let value = ExactDecimal(parsing: text) else { preconditionFailure("\(text) is not a decimal") }
    return value
}

@Suite struct AlertInputTests {
    static let demoBeta = ServiceBranding(id: "demo-beta", name: "Beta Demo", glyph: "β", color: .magenta)
    static let demoAlpha = ServiceBranding(id: "demo-alpha", name: "Alpha Demo", glyph: "α", color: .cyan)
    static let context = AlertInput.Context(
        symbol: "AAPL", rowBroker: demoAlpha, brokers: [demoAlpha, demoBeta, beta],
        lastPrices: ["demo-alpha": price("190.12"), "demo-beta": price("190.2")])

    private func parsed(_ text: String, in context: AlertInput.Context = context) -> AlertDraft? {
        try? AlertInput.parse(text, in: context).get()
    }

    private func refusal(_ text: String, in context: AlertInput.Context = context) -> String? {
        guard case .failure(let refusal) = AlertInput.parse(text, in: context) else { return nil }
        return refusal.description
    }

    @Test func conditionsAndTheDefaults() {
        #expect(parsed(">190.5") == AlertDraft(symbol: "AAPL", condition: .above(price("190.5")), scope: .any, rearm: .once))
        #expect(parsed("<180")?.condition == .below(price("180")))
        #expect(parsed("> 190.5")?.condition == .above(price("190.5")))
        #expect(parsed("+5%")?.condition == .move(percent: price("5"), reference: price("190.12")))
        #expect(parsed("-3%")?.condition == .move(percent: price("-3"), reference: price("190.12")))
        #expect(parsed("+0.01%")?.condition == .move(percent: price("0.01"), reference: price("190.12")))
    }

    @Test func brokersAndRearm() {
        #expect(parsed(">1 @")?.scope == .broker("demo-alpha"))
        #expect(parsed(">1 @demo-beta")?.scope == .broker("demo-beta"))
        // An exact id wins over the words of names; a word alone must name one broker.
        #expect(parsed(">1 @Beta")?.scope == .broker("beta"))
        #expect(parsed("rearm any <2")?.scope == .any)
        #expect(parsed("rearm any <2")?.rearm == .whenCleared)
        #expect(parsed(">1 @ALPHA REARM") == AlertDraft(symbol: "AAPL", condition: .above(price("1")), scope: .broker("demo-alpha"), rearm: .whenCleared))
        // A move on one broker is measured from that broker's price.
        #expect(parsed("+1% @demo-beta")?.condition == .move(percent: price("1"), reference: price("190.2")))
    }

    @Test func refusalsSayWhatToType() {
        #expect(refusal("") == "type a condition: >190.5, <180, +5% or -3%")
        #expect(refusal("rearm") == "no condition: add one of >190.5, <180, +5% or -3%")
        #expect(refusal(">19O") == "'>19O' needs a price above 0 after >, such as >190.5")
        #expect(refusal("<0") == "'<0' needs a price above 0 after <, such as <190.5")
        #expect(refusal("190") == "'190' has no direction: >190 fires at or above it, <190 at or below")
        #expect(refusal("5%") == "'5%' has no direction: +5% for a rise, -5% for a fall")
        #expect(refusal("+5") == "'+5' is not a move: write a sign, a number and %, such as +5% or -0.5%")
        #expect(refusal("+0%") == "a move of 0% would fire at once; use e.g. +5% or -3%")
        #expect(refusal("-100%") == "'-100%' would need a price of 0 or less; a fall is less than 100%")
        #expect(refusal(">1 <2") == "two conditions ('>1' and '<2'); an alert has one")
        #expect(refusal(">1 @zeta") == "no broker '@zeta'; brokers: demo-alpha, demo-beta, beta, or any")
        #expect(refusal(">1 @demo") == "'@demo' could be demo-alpha or demo-beta; give its id")
        #expect(refusal(">1 any @") == "two brokers ('any' and '@'); give one, or any")
        #expect(refusal("soon") == "'soon' is not a condition (>190.5, <180, +5% or -3%), a broker (any, @, @name) or rearm")
        #expect(refusal("\u{1b}[31m") == "'\\u{1b}[31m' is not a condition (>190.5, <180, +5% or -3%), a broker (any, @, @name) or rearm")
    }

    @Test func aMoveNeedsAPriceToMeasureFrom() {
        let noPrices = AlertInput.Context(symbol: "NEW", rowBroker: Self.demoAlpha, brokers: [Self.demoAlpha], lastPrices: [:])
        #expect(refusal("+5%", in: noPrices) == "no price yet for NEW to measure '+5%' from; wait for a quote or use > or <")
        #expect(parsed(">5", in: noPrices) != nil)
        // With any broker, another broker's price serves when the row has none.
        let otherHasOne = AlertInput.Context(symbol: "NEW", rowBroker: beta, brokers: [Self.demoAlpha, beta], lastPrices: ["demo-alpha": price("10")])
        #expect(parsed("-2%", in: otherHasOne)?.condition == .move(percent: price("-2"), reference: price("10")))
    }
}
