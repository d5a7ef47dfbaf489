import Domain
import Foundation
import Testing

/// `ExactDecimal` from text the test itself writes; a typo fails the test rather than trapping.
func decimal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ExactDecimal {
    try #require(ExactDecimal(parsing: text), "\(text) should parse", sourceLocation: sourceLocation)
}

@Suite struct ExactDecimalParsingTests {
    @Test(arguments: [
        ("150.25", Int64(15_025_000_000)),
        ("-0.0001", -10_000),
        ("0", 0),
        ("-0", 0),
        ("0.0", 0),
        ("10", 1_000_000_000),
        ("1e2", 10_000_000_000),
        ("1E+2", 10_000_000_000),
        ("1e-8", 1),
        ("1.5E3", 150_000_000_000),
        ("25e-2", 25_000_000),
        ("0.00000001", 1),
        ("123456789.12345678", 12_345_678_912_345_678),
        // Tradier prints long zero tails; zeros never round anything.
        ("17798.360000000000000000000", 1_779_836_000_000),
        ("90000000000", 9_000_000_000_000_000_000),
        ("-90000000000.00000000", -9_000_000_000_000_000_000),
        ("0e999999999999999999999", 0),
        ("0.0e-5", 0),
    ])
    func readsJSONNumberTextExactly(_ text: String, units: Int64) throws {
        #expect(try decimal(text).units == units)
    }

    @Test(arguments: [
        // Beyond 8 decimals: half to even at the 9th digit, anything after it breaks the tie.
        ("0.000000015", Int64(2)),
        ("0.000000025", 2),
        ("0.000000005", 0),
        ("0.000000006", 1),
        ("0.0000000051", 1),
        ("0.000000004999999999", 0),
        ("0.000000025000000001", 3),
        ("-0.000000015", -2),
        ("116.573333333333", 11_657_333_333),
        ("1e-20", 0),
        ("5e-9", 0),
        ("15e-9", 2),
        ("-90000000000.000000005", -9_000_000_000_000_000_000),
    ])
    func roundsDigitsBeyondTheEighthDecimalHalfToEven(_ text: String, units: Int64) throws {
        #expect(try decimal(text).units == units)
    }

    @Test(arguments: [
        "", " ", "1 ", " 1", "+1", ".5", "5.", "007", "00", "-", "--1", "-.5", "1,000", "1_000", "$5",
        "NaN", "nan", "Infinity", "-inf", "0x10", "1e", "1e+", "1e-", "e5", "1.2.3", "1e2.5", "1ee2",
        "١٢", "１２", "12\u{0}", "1\n", "5%", "1/2",
        // Out of range, however written.
        "90000000000.00000001", "90000000000.000000006", "-90000000001", "1e11", "92233720368.54775807",
        "1e999999999999999999999999",
    ])
    func refusesAnythingElse(_ text: String) {
        #expect(ExactDecimal(parsing: text) == nil)
    }

    @Test func survivesVeryLongInput() throws {
        #expect(ExactDecimal(parsing: String(repeating: "9", count: 100_000)) == nil)
        #expect(try decimal("0." + String(repeating: "0", count: 100_000) + "1") == .zero)
        #expect(try decimal("1." + String(repeating: "0", count: 100_000)) == 1)
        #expect(try decimal("1" + String(repeating: "0", count: 10) + "e-10") == 1)
    }

    @Test func readsSubstringsAndBridgedStrings() throws {
        let line = "price=150.25;"
        let slice = line.split(separator: "=")[1].dropLast()
        #expect(ExactDecimal(parsing: slice) == (try decimal("150.25")))
        #expect(ExactDecimal(parsing: NSString(string: "0.1") as String) == (try decimal("0.1")))
    }

    /// Wire bytes read in place (a stream frame's number token) give what the text gives, nil included.
    @Test(arguments: ["150.25", "-0.0001", "1e-8", "0.000000015", "17798.360000000000000000000", "007", "", "1e11", "NaN"])
    func readsUTF8BytesAsItReadsText(_ text: String) {
        let frame = Array(#"{"p":\#(text),"t":1}"#.utf8)
        let token = frame.withUnsafeBufferPointer { bytes in
            ExactDecimal(parsingUTF8: UnsafeBufferPointer(rebasing: bytes[5..<(5 + text.utf8.count)]))
        }
        #expect(token == ExactDecimal(parsing: text))
    }
}

@Suite struct ExactDecimalTextTests {
    @Test(arguments: [
        ("150.25", "150.25"), ("-0.5", "-0.5"), ("10", "10"), ("10.00", "10"), ("0.00000001", "0.00000001"),
        ("-90000000000", "-90000000000"), ("1e2", "100"), ("0.1", "0.1"), ("-0", "0"), ("1234.5000", "1234.5"),
    ])
    func describesWithTheFewestExactDigits(_ text: String, expected: String) throws {
        #expect(try decimal(text).description == expected)
    }

    @Test func everyValueReadsBackFromItsDescription() {
        var random = SplitMix64(seed: 0x7EAD)
        for _ in 0..<20_000 {
            let units = Int64(bitPattern: random.next()) % 9_000_000_000_000_000_000
            // Small values and short fractions too, not only 19-digit ones.
            let scaled = units / powerOfTen(Int(random.next() % 19))
            let value = ExactDecimal(units: scaled)
            #expect(ExactDecimal(parsing: value.description) == value, "\(scaled)")
        }
    }

    @Test(arguments: [
        ("150.5", 2, "150.50"), ("10", 2, "10.00"), ("-0.5", 2, "-0.50"), ("-0.004", 2, "0.00"),
        ("0.00000001", 8, "0.00000001"), ("2.5", 0, "2"), ("3.5", 0, "4"), ("150.255", 2, "150.26"),
        ("0.1234", 4, "0.1234"), ("99.999", 2, "100.00"), ("7", 0, "7"),
    ])
    func formatsFixedFractionDigits(_ text: String, digits: Int, expected: String) throws {
        #expect(try decimal(text).formatted(fractionDigits: digits) == expected)
    }

    @Test func formatsWithTheGivenRule() throws {
        #expect(try decimal("2.345").formatted(fractionDigits: 2, rule: .toNearestOrAwayFromZero) == "2.35")
        #expect(try decimal("2.345").formatted(fractionDigits: 2, rule: .toNearestOrEven) == "2.34")
        #expect(try decimal("2.341").formatted(fractionDigits: 2, rule: .up) == "2.35")
    }

    @Test func countsTheDecimalsItNeeds() throws {
        #expect(try decimal("150.25").significantFractionDigits == 2)
        #expect(try decimal("10").significantFractionDigits == 0)
        #expect(try decimal("-0.00000001").significantFractionDigits == 8)
        #expect(try decimal("0.1200").significantFractionDigits == 2)
    }
}

private func powerOfTen(_ exponent: Int) -> Int64 {
    (0..<exponent).reduce(1) { power, _ in power * 10 }
}

@Suite struct ExactDecimalArithmeticTests {
    @Test func addsAndSubtractsExactly() throws {
        #expect(try decimal("0.1") + decimal("0.2") == decimal("0.3"))
        #expect(try decimal("150.25") - decimal("150.26") == decimal("-0.01"))
        var total: ExactDecimal = 0
        for _ in 0..<10 { total += try decimal("0.1") }
        #expect(total == 1)
        total -= 1
        #expect(total.isZero)
    }

    @Test func multipliesExactlyWhenTheDecimalsFitAndRoundsHalfToEvenOtherwise() throws {
        #expect(try decimal("150.25") * 100 == decimal("15025"))
        #expect(try decimal("0.0001") * decimal("0.0001") == decimal("0.00000001"))
        #expect(try decimal("1.5") * decimal("-1.5") == decimal("-2.25"))
        // 0.000000005 and 0.000000015: ties go to the even last digit.
        #expect(try decimal("0.00000001") * decimal("0.5") == .zero)
        #expect(try decimal("0.00000003") * decimal("0.5") == decimal("0.00000002"))
        #expect(try decimal("0.00000003").multiplied(by: decimal("0.5"), rounding: .up) == decimal("0.00000002"))
        #expect(try decimal("0.00000001").multiplied(by: decimal("0.5"), rounding: .awayFromZero) == decimal("0.00000001"))
    }

    @Test(arguments: [
        (FloatingPointRoundingRule.toNearestOrEven, "0.66666667", "-0.66666667", "0.5", "-0.5"),
        (.toNearestOrAwayFromZero, "0.66666667", "-0.66666667", "0.50000001", "-0.50000001"),
        (.towardZero, "0.66666666", "-0.66666666", "0.5", "-0.5"),
        (.awayFromZero, "0.66666667", "-0.66666667", "0.50000001", "-0.50000001"),
        (.down, "0.66666666", "-0.66666667", "0.5", "-0.50000001"),
        (.up, "0.66666667", "-0.66666666", "0.50000001", "-0.5"),
    ])
    func dividesWithTheRuleGiven(_ rule: FloatingPointRoundingRule, twoThirds: String, minusTwoThirds: String, tie: String, minusTie: String) throws {
        #expect(try decimal("2").divided(by: 3, rounding: rule) == decimal(twoThirds))
        #expect(try decimal("-2").divided(by: 3, rounding: rule) == decimal(minusTwoThirds))
        #expect(try decimal("2").divided(by: -3, rounding: rule) == decimal(minusTwoThirds))
        // 1.00000001 ÷ 2 = 0.500000005: exactly halfway between two units.
        #expect(try decimal("1.00000001").divided(by: 2, rounding: rule) == decimal(tie))
        #expect(try decimal("-1.00000001").divided(by: 2, rounding: rule) == decimal(minusTie))
    }

    /// A percent or basis points of a base, rounded once: 1 ÷ 3 as a percent is 33.33333333, where
    /// dividing first (0.33333333) and then multiplying by 100 would give 33.333333.
    @Test func takesRatiosScaledInOneStep() throws {
        #expect(try decimal("1").ratio(to: 3, times: 100, rounding: .towardZero) == decimal("33.33333333"))
        #expect(try decimal("2").ratio(to: 3, times: 100) == decimal("66.66666667"))
        #expect(try decimal("-2").ratio(to: 3, times: 100, rounding: .towardZero) == decimal("-66.66666666"))
        #expect(try decimal("0.06").ratio(to: decimal("189.84"), times: 10_000, rounding: .towardZero) == decimal("3.16055625"))
        #expect(try ExactDecimal.max.ratio(to: .max, times: 1_000_000_000) == ExactDecimal(1_000_000_000))
        #expect(throws: ExactDecimal.ArithmeticError.divisionByZero(expression: "1 × 100 ÷ 0")) {
            try ExactDecimal(1).ratio(to: .zero, times: 100)
        }
        #expect(throws: ExactDecimal.ArithmeticError.overflow(expression: "90000000000 × 100 ÷ 1")) {
            try ExactDecimal.max.ratio(to: 1, times: 100)
        }
    }

    @Test func takesMidpointsExactlyAndNeverOverflows() throws {
        #expect(try ExactDecimal.midpoint(decimal("423.09"), decimal("423.12")) == decimal("423.105"))
        #expect(try ExactDecimal.midpoint(decimal("0.00000001"), decimal("0.00000002")) == decimal("0.00000002"), "half to even")
        #expect(try ExactDecimal.midpoint(decimal("0.00000002"), decimal("0.00000003")) == decimal("0.00000002"), "half to even")
        #expect(ExactDecimal.midpoint(.max, .max) == .max)
        #expect(ExactDecimal.midpoint(-ExactDecimal.max, .max) == .zero)
    }

    @Test func reportsOverflowInsteadOfTrapping() throws {
        let tiny = try decimal("0.00000001")
        #expect(throws: ExactDecimal.ArithmeticError.overflow(expression: "90000000000 + 0.00000001")) {
            try ExactDecimal.max.adding(tiny)
        }
        #expect(throws: ExactDecimal.ArithmeticError.overflow(expression: "-90000000000 - 1")) {
            try (-ExactDecimal.max).subtracting(1)
        }
        #expect(throws: ExactDecimal.ArithmeticError.overflow(expression: "1000000 × 1000000")) {
            try ExactDecimal(1_000_000).multiplied(by: 1_000_000)
        }
        #expect(throws: ExactDecimal.ArithmeticError.overflow(expression: "90000000000 ÷ 0.5")) {
            try ExactDecimal.max.divided(by: decimal("0.5"))
        }
        #expect(throws: ExactDecimal.ArithmeticError.divisionByZero(expression: "1 ÷ 0")) {
            try ExactDecimal(1).divided(by: .zero)
        }
        #expect(ExactDecimal.ArithmeticError.overflow(expression: "1000000 × 1000000").description
            == "1000000 × 1000000 is beyond ±90000000000")
        // The largest magnitudes still multiply and divide without trapping inside.
        #expect(try ExactDecimal.max.multiplied(by: 1) == .max)
        #expect(try ExactDecimal.max.divided(by: -1) == -ExactDecimal.max)
        #expect(try (-ExactDecimal.max).multiplied(by: tiny) == decimal("-900"))
    }

    @Test func comparesOrdersAndHashesByValue() throws {
        let values = try ["10", "-0.5", "150.25", "0.1", "10.00"].map { try decimal($0) }
        #expect(values.sorted().map(\.description) == ["-0.5", "0.1", "10", "10", "150.25"])
        #expect(Set(values).count == 4)
        #expect(try decimal("-3.5").magnitude == decimal("3.5"))
        #expect(try decimal("3").isWholeNumber && !decimal("3.1").isWholeNumber)
        #expect(try ExactDecimal(-7) == -7 && ExactDecimal(units: 1) == decimal("1e-8"))
    }
}

@Suite struct ExactDecimalRoundingTests {
    @Test(arguments: [
        ("150.255", 2, FloatingPointRoundingRule.toNearestOrEven, "150.26"),
        ("150.245", 2, .toNearestOrEven, "150.24"),
        ("150.245", 2, .toNearestOrAwayFromZero, "150.25"),
        ("150.2449", 2, .toNearestOrAwayFromZero, "150.24"),
        ("-150.245", 2, .toNearestOrAwayFromZero, "-150.25"),
        ("-150.241", 2, .down, "-150.25"),
        ("-150.249", 2, .up, "-150.24"),
        ("-150.249", 2, .towardZero, "-150.24"),
        ("150.241", 2, .awayFromZero, "150.25"),
        ("0.00005", 4, .toNearestOrEven, "0"),
        ("0.00015", 4, .toNearestOrEven, "0.0002"),
        ("7.5", 0, .toNearestOrEven, "8"),
        ("1.23456789", 8, .toNearestOrEven, "1.23456789"),
    ])
    func roundsToAScale(_ text: String, scale: Int, rule: FloatingPointRoundingRule, expected: String) throws {
        #expect(try decimal(text).rounded(toScale: scale, rule: rule) == decimal(expected))
    }

    @Test func roundingNeverLeavesTheRange() throws {
        #expect(ExactDecimal.max.rounded(toScale: 0, rule: .up) == .max)
        #expect((-ExactDecimal.max).rounded(toScale: 0, rule: .down) == -ExactDecimal.max)
        #expect(try decimal("89999999999.99999999").rounded(toScale: 0, rule: .up) == .max)
    }
}

@Suite struct ExactDecimalCodingTests {
    struct Wire: Codable, Equatable {
        var price: ExactDecimal
    }

    @Test func encodesAsAJSONString() throws {
        let json = try JSONEncoder().encode(Wire(price: decimal("150.25")))
        #expect(String(decoding: json, as: UTF8.self) == #"{"price":"150.25"}"#)
    }

    @Test(arguments: ["0.1", "123456789.12345678", "1e-8", "1E+2", "-0.0001", "17798.360000000000000000000", "90000000000"])
    func decodesJSONNumbersExactlyWithoutDouble(_ number: String) throws {
        let wire = try JSONDecoder().decode(Wire.self, from: Data(#"{"price":\#(number)}"#.utf8))
        #expect(wire.price == (try decimal(number)))
        let string = try JSONDecoder().decode(Wire.self, from: Data(#"{"price":"\#(number)"}"#.utf8))
        #expect(string.price == wire.price)
    }

    @Test func roundTripsThroughJSON() throws {
        var random = SplitMix64(seed: 15)
        for _ in 0..<1_000 {
            let value = ExactDecimal(units: Int64(bitPattern: random.next()) % 9_000_000_000_000_000_000)
            let json = try JSONEncoder().encode(Wire(price: value))
            #expect(try JSONDecoder().decode(Wire.self, from: json).price == value)
        }
    }

    @Test(arguments: [#""abc""#, #""1,5""#, #"" 1""#, "true", "null", "1e300", #""1e11""#, "[1]", #"{"a":1}"#])
    func refusesWhatIsNotADecimalInRange(_ value: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Wire.self, from: Data(#"{"price":\#(value)}"#.utf8))
        }
    }

    @Test func escapesBadTextInTheDecodingError() throws {
        do {
            _ = try JSONDecoder().decode(Wire.self, from: Data(#"{"price":"\u001b[2J"}"#.utf8))
            Issue.record("decoded an escape sequence as a price")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(!context.debugDescription.contains("\u{1B}"))
            #expect(context.debugDescription.contains("is not a decimal"))
        }
    }
}
