import BrokerAdapters
import Foundation
import Testing

@Suite struct OneOrManyTests {
    struct Item: Decodable, Equatable { var symbol: String }
    struct Holder: Decodable { var item: OneOrMany<Item>? }

    func decode(_ json: String) throws -> [Item]? {
        try JSONDecoder().decode(Holder.self, from: Data(json.utf8)).item?.elements
    }

    @Test func objectArrayAndNothing() throws {
        #expect(try decode(#"{"item":{"symbol":"AAPL"}}"#) == [Item(symbol: "AAPL")])
        #expect(try decode(#"{"item":[{"symbol":"AAPL"},{"symbol":"MSFT"}]}"#) == [Item(symbol: "AAPL"), Item(symbol: "MSFT")])
        #expect(try decode(#"{"item":[]}"#) == [])
        #expect(try decode(#"{}"#) == nil)
    }

    /// Tradier sends some empty collections as `null` and others as the string `"null"` (reference §1.3).
    @Test func nullAndTheStringNullAreEmpty() throws {
        #expect(try JSONDecoder().decode(OneOrMany<Item>.self, from: Data("null".utf8)).elements == [])
        #expect(try decode(#"{"item":"null"}"#) == [])
    }

    @Test func stringsOneOrMany() throws {
        struct Symbols: Decodable { var symbol: OneOrMany<String> }
        #expect(try JSONDecoder().decode(Symbols.self, from: Data(#"{"symbol":"ZZZQ"}"#.utf8)).symbol.elements == ["ZZZQ"])
        #expect(try JSONDecoder().decode(Symbols.self, from: Data(#"{"symbol":["ZZZQ","XXYYZ"]}"#.utf8)).symbol.elements == ["ZZZQ", "XXYYZ"])
    }

    @Test func aBadArrayMemberReportsItsOwnPath() {
        do {
            _ = try decode(#"{"item":[{"symbol":"AAPL"},{"name":"MSFT"}]}"#)
            Issue.record("decoded a member without its symbol")
        } catch let DecodingError.keyNotFound(key, context) {
            #expect(key.stringValue == "symbol")
            #expect(context.codingPath.map(\.stringValue).first == "item")
            #expect(context.codingPath.last?.intValue == 1)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
