import TestSupport
import Testing

/// `COMMONBROKER_TEST_TIME_SCALE`: unset means the limits as written; a bad value stops the run with a
/// message naming the variable rather than silently running unscaled.
@Suite struct TestTimeTests {
    @Test func unsetOrEmptyMeansTheLimitsAsWritten() throws {
        #expect(try TestTime.parse(nil) == 1)
        #expect(try TestTime.parse("") == 1)
    }

    @Test func aWholeNumberIsTheScale() throws {
        #expect(try TestTime.parse("1") == 1)
        #expect(try TestTime.parse("5") == 5)
        #expect(try TestTime.parse("100") == 100)
    }

    @Test(arguments: ["0", "-2", "101", "2.5", "five", " 5"])
    func anythingElseIsRefusedNamingTheVariable(text: String) {
        #expect {
            try TestTime.parse(text)
        } throws: { error in
            let description = String(describing: error)
            return description.hasPrefix("COMMONBROKER_TEST_TIME_SCALE=\(text) is not a whole number from 1 to 100")
                && description.contains("make test-tsan sets 5")
        }
    }

    /// The run's own scale stretches durations and seconds alike.
    @Test func limitsAreMultipliedByTheRunsScale() {
        #expect(TestTime.scale >= 1)
        #expect(TestTime.scaled(.milliseconds(300)) == .milliseconds(300 * TestTime.scale))
        #expect(TestTime.scaled(1.5) == 1.5 * Double(TestTime.scale))
    }
}
