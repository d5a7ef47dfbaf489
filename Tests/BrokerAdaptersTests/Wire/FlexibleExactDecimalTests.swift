import BrokerAdapters
import Domain
import Foundation
import Testing

@Suite struct FlexibleExactDecimalTests {
    struct Amount: Decodable { var amount: FlexibleExactDecimal? }

    func decode(_ json: String) throws -> ExactDecimal? {
        try JSONDecoder().decode(Amount.self, from: Data(json.utf8)).amount?.value
    }

    /// Numbers are read from their digits, strings from their text: both exact, never via `Double`
    /// (0.1 and 150.25 have no exact binary value; 1e-8 is the smallest unit).
    @Test(arguments: ["0.1", "150.25", "1e-8", "131056.816", "-4813", "17798.360000000000000000000", "90000000000"])
    func numbersAndStringsExactly(_ text: String) throws {
        let expected = exactDecimal(text)
        #expect(try decode(#"{"amount":\#(text)}"#) == expected)
        #expect(try decode(#"{"amount":"\#(text)"}"#) == expected)
        #expect(try decode(#"{"amount":" \#(text) "}"#) == expected)
    }

    @Test func nullEmptyAndMissingAreNoValue() throws {
        #expect(try decode(#"{"amount":null}"#) == nil)
        #expect(try decode(#"{"amount":""}"#) == nil)
        #expect(try decode(#"{"amount":"  "}"#) == nil)
        #expect(try decode(#"{}"#) == nil)
    }

    @Test func refusesWhatIsNotAnAmount() {
        for bad in [#"{"amount":"abc"}"#, #"{"amount":"NaN"}"#, #"{"amount":"$5"}"#, #"{"amount":"1,000"}"#, #"{"amount":true}"#,
                    #"{"amount":[1]}"#, #"{"amount":1e11}"#, #"{"amount":"90000000001"}"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try decode(bad) }
        }
    }
}
