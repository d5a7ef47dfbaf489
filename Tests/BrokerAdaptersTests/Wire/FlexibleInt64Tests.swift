import BrokerAdapters
import Foundation
import Testing

@Suite struct FlexibleInt64Tests {
    struct Count: Decodable { var value: FlexibleInt64? }

    func decode(_ json: String) throws -> Int64? {
        try JSONDecoder().decode(Count.self, from: Data(json.utf8)).value?.value
    }

    @Test func integersStringsAndNulls() throws {
        #expect(try decode(#"{"value":38211905}"#) == 38_211_905)
        #expect(try decode(#"{"value":"1731528912441"}"#) == 1_731_528_912_441)
        #expect(try decode(#"{"value":2868.0}"#) == 2868)
        #expect(try decode(#"{"value":null}"#) == nil)
        #expect(try decode(#"{"value":""}"#) == nil)
    }

    /// Nanosecond timestamps sit above 2^53: through a Double they would lose their last digits.
    @Test func nanosecondsKeepEveryDigit() throws {
        #expect(try decode(#"{"value":1731528912441123457}"#) == 1_731_528_912_441_123_457)
        #expect(try decode(#"{"value":"1731528912441123457"}"#) == 1_731_528_912_441_123_457)
        #expect(try decode(#"{"value":9223372036854775807}"#) == Int64.max)
    }

    @Test func rejectsFractionsAndText() {
        for bad in [#"{"value":1.5}"#, #"{"value":"1.5"}"#, #"{"value":"twelve"}"#, #"{"value":1e30}"#, #"{"value":false}"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try decode(bad) }
        }
    }
}
