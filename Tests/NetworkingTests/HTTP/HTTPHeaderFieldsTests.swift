import Foundation
import Networking
import Testing

/// A request's header fields: one per name in any case, names as URLRequest on Linux stored them, a fixed order.
@Suite struct HTTPHeaderFieldsTests {
    func lines(_ fields: HTTPHeaderFields) -> [String] { fields.map { "\($0.name): \($0.value)" } }

    @Test func namesAreMatchedInAnyCaseAndStoredCapitalized() {
        var fields = HTTPHeaderFields()
        fields["APCA-API-KEY-ID"] = "k"

        #expect(fields["apca-api-key-id"] == "k")
        #expect(fields["Apca-Api-Key-Id"] == "k")
        #expect(lines(fields) == ["Apca-Api-Key-Id: k"])
        #expect(fields.dictionary == ["Apca-Api-Key-Id": "k"])
        #expect(fields["X-Other"] == nil)
    }

    @Test func settingANameInAnotherCaseReplacesTheFieldAndNilRemovesIt() {
        var fields: HTTPHeaderFields = ["accept": "text/plain", "User-Agent": "a"]
        fields["ACCEPT"] = "application/json"

        #expect(lines(fields) == ["Accept: application/json", "User-Agent: a"])
        #expect(fields.count == 2)

        fields["user-agent"] = nil
        fields["X-Absent"] = nil
        #expect(lines(fields) == ["Accept: application/json"])
        fields["accept"] = nil
        #expect(fields.isEmpty)
    }

    @Test func fieldsAreKeptInTheOrderOfTheirLowercasedNamesWhateverTheOrderTheyWereSetIn() {
        var forwards = HTTPHeaderFields()
        var backwards = HTTPHeaderFields()
        let names = ["X-Finnhub-Token", "accept", "User-Agent", "Content-Type", "Authorization"]
        for name in names { forwards[name] = name.lowercased() }
        for name in names.reversed() { backwards[name] = name.lowercased() }

        #expect(forwards == backwards)
        #expect(forwards.map(\.name) == ["Accept", "Authorization", "Content-Type", "User-Agent", "X-Finnhub-Token"])
    }

    /// A dictionary's order varies from run to run; names that differ only in case must not make the result vary.
    @Test func fromADictionaryTheNameThatSortsLastWinsACaseCollision() {
        let fields = HTTPHeaderFields(["x-token": "lower", "X-Token": "upper", "Accept": "application/json"])

        #expect(lines(fields) == ["Accept: application/json", "X-Token: lower"])
    }

    @Test func aLiteralLaterNameReplacesAnEarlierOneInAnotherCase() {
        let fields: HTTPHeaderFields = ["X-Token": "first", "x-token": "second"]

        #expect(lines(fields) == ["X-Token: second"])
    }
}
