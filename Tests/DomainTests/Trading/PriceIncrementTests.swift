import Domain
import Testing

@Suite struct PriceIncrementTests {
    let rule = PriceIncrement.usEquities

    @Test(arguments: [
        ("150.25", true), ("150.255", false), ("1", true), ("1.00", true), ("1.001", false), ("0.9999", true),
        ("0.12345", false), ("0.1234", true), ("0.5", true), ("12000.1", true), ("-1.005", false),
    ])
    func allowsCentsFromADollarAndHundredthsOfACentBelow(_ text: String, valid: Bool) throws {
        #expect(try rule.isValid(decimal(text)) == valid)
    }

    @Test func namesTheTickAtEachLevel() throws {
        #expect(try rule.tick(at: decimal("150.25")) == decimal("0.01"))
        #expect(try rule.tick(at: decimal("1")) == decimal("0.01"))
        #expect(try rule.tick(at: decimal("0.9999")) == decimal("0.0001"))
        #expect(try rule.decimals(at: decimal("0.5")) == 4)
    }

    @Test func roundsOntoATick() throws {
        #expect(try rule.rounded(decimal("150.255")) == decimal("150.26"))
        #expect(try rule.rounded(decimal("150.259"), rule: .down) == decimal("150.25"))
        #expect(try rule.rounded(decimal("0.12345")) == decimal("0.1234"))
        // Rounding up from below a dollar lands on a whole cent, which is valid above.
        let nearDollar = try rule.rounded(decimal("0.99996"))
        #expect(nearDollar == 1 && rule.isValid(nearDollar))
    }
}
