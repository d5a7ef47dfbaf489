import BrokerAdapters
import Foundation
import Testing

@Suite struct FlexibleDoubleTests {
    struct Price: Decodable { var price: FlexibleDouble? }

    func decode(_ json: String) throws -> Double? {
        try JSONDecoder().decode(Price.self, from: Data(json.utf8)).price?.value
    }

    @Test func numbersStringsAndNulls() throws {
        #expect(try decode(#"{"price":227.52}"#) == 227.52)
        #expect(try decode(#"{"price":-4813}"#) == -4813)
        #expect(try decode(#"{"price":"227.52"}"#) == 227.52)
        #expect(try decode(#"{"price":" 1e2 "}"#) == 100)
        #expect(try decode(#"{"price":null}"#) == nil)
        #expect(try decode(#"{"price":""}"#) == nil)
        #expect(try decode(#"{}"#) == nil)
    }

    @Test func longDecimalsAsTradierPrintsThem() throws {
        #expect(try decode(#"{"price":17798.360000000000000000000}"#) == 17798.36)
        #expect(try decode(#"{"price":"17798.360000000000000000000"}"#) == 17798.36)
    }

    @Test func rejectsTextAndNonFiniteValues() {
        for bad in [#"{"price":"abc"}"#, #"{"price":"NaN"}"#, #"{"price":"inf"}"#, #"{"price":true}"#, #"{"price":[1]}"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try decode(bad) }
        }
    }
}
