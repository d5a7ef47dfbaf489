import BrokerAdapters
import Domain
import Foundation
import Networking
import Testing

@Suite struct WireDecodingTests {
    struct Envelope: Decodable { var quotes: [Quote] }
    struct Quote: Decodable { var symbol: String; var last: Double }

    func message(_ body: String) -> String? {
        do {
            _ = try WireDecoding.decode(Envelope.self, from: HTTPResponse(status: 200, body: Data(body.utf8)), broker: "tradier")
            return nil
        } catch {
            guard case .badResponse(let detail) = error else { return "wrong error \(error)" }
            return detail
        }
    }

    @Test func decodesTheModel() throws {
        let body = Data(#"{"quotes":[{"symbol":"AAPL","last":227.52}]}"#.utf8)
        let envelope = try WireDecoding.decode(Envelope.self, from: HTTPResponse(status: 200, body: body), broker: "tradier")
        #expect(envelope.quotes.first?.last == 227.52)
    }

    @Test func shortReasonsWithPathAndExcerpt() {
        #expect(message(#"{"quote":[]}"#) == "tradier: unexpected response: missing key 'quotes'; body starts '{\"quote\":[]}'")
        #expect(message(#"{"quotes":[{"symbol":"AAPL","last":"x"}]}"#)?.hasPrefix("tradier: unexpected response: expected Double at quotes[0].last; body starts '{\"quotes\"") == true)
        #expect(message(#"{"quotes":[{"symbol":"AAPL","last":null}]}"#)?.contains("null where Double expected at quotes[0].last") == true)
        #expect(message(#"{"quotes":[{"symbol":"AAPL"}]}"#)?.contains("missing key 'last' at quotes[0]") == true)
    }

    @Test func garbageBodiesAreNamedNotDumped() throws {
        let html = "<html><head><title>502 Bad Gateway</title></head><body>" + String(repeating: "x", count: 5_000) + "</body></html>"
        let detail = try #require(message(html))
        #expect(detail.hasPrefix("tradier: unexpected response: not JSON; body starts '<html><head><title>502 Bad Gateway</title></head><body>xxxx"))
        #expect(detail.count < 160)
        #expect(message("") == "tradier: unexpected response: no JSON; empty body")
        #expect(message("{\"quotes\":\u{1B}[31m") == "tradier: unexpected response: not JSON; body starts '{\"quotes\": [31m'")
    }
}
