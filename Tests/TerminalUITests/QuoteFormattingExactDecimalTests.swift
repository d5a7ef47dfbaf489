import Domain
import Testing
@testable import TerminalUI

@Suite struct QuoteFormattingExactDecimalTests {
    func exact(_ text: String) -> ExactDecimal {
        guard let value = ExactDecimal(parsing: text) else { preconditionFailure("\(text) is not a decimal") }
        return value
    }

    @Test(arguments: [
        ("17798.36", "17,798.36"), ("-1250", "-1,250.00"), ("1234567.891", "1,234,567.89"), ("0", "0.00"),
        ("999.995", "1,000.00"), ("-999.995", "-1,000.00"), ("131056.816", "131,056.82"), ("0.125", "0.13"),
        ("-0.004", "0.00"), ("100", "100.00"), ("90000000000", "90,000,000,000.00"), ("0.1", "0.10"),
    ])
    func moneyIsGroupedToTheCentHalfAwayFromZero(_ text: String, _ shown: String) {
        #expect(QuoteFormatting.money(exact(text)) == shown)
    }

    /// Where both can hold the value, the exact column reads as the `Double` column always did.
    @Test(arguments: ["17798.36", "12893.21", "-1250", "1234567.891", "0.5", "3985.2"])
    func matchesTheDoubleColumn(_ text: String) {
        #expect(QuoteFormatting.money(exact(text)) == QuoteFormatting.money(Double(text)!))
    }
}
