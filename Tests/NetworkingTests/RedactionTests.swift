import Foundation
import Networking
import Testing

@Suite struct RedactionTests {
    @Test func secretQueryValuesAreReplacedAndTheRestKept() {
        let url = URL(string: "https://api.polygon.io/v2/snapshot?tickers=AAPL,BRK.B&apiKey=pk_live%2Fabc&limit=5")!
        #expect(Redaction.urlString(url, secretNames: ["apiKey"]) == "https://api.polygon.io/v2/snapshot?tickers=AAPL,BRK.B&apiKey=<redacted>&limit=5")
        #expect(Redaction.urlString(url, secretNames: ["APIKEY"]) == "https://api.polygon.io/v2/snapshot?tickers=AAPL,BRK.B&apiKey=<redacted>&limit=5")
        #expect(Redaction.urlString(url, secretNames: []) == url.absoluteString)
        let nameOnly = URL(string: "https://finnhub.io/api/v1/quote?symbol=AAPL&token=")!
        #expect(Redaction.urlString(nameOnly, secretNames: ["token"]) == nameOnly.absoluteString)
    }

    @Test func aPasswordInTheAuthorityIsReplaced() {
        let url = URL(string: "https://user:hunter2@example.com:8443/v1/x?token=abc#frag")!
        #expect(Redaction.urlString(url, secretNames: ["token"]) == "https://user:<redacted>@example.com:8443/v1/x?token=<redacted>#frag")
    }

    @Test func queryItemsAreDecodedAndRedactedInOrder() {
        let url = URL(string: "http://h/p?b=2&token=abc&a=x%20y")!
        let items = Redaction.queryItems(of: url, secretNames: ["Token"])
        #expect(items.map(\.name) == ["b", "token", "a"])
        #expect(items.map(\.value) == ["2", "<redacted>", "x y"])
    }

    @Test func secretHeadersAreMatchedWithoutRegardToCase() {
        let headers = ["authorization": "Bearer abc", "APCA-API-SECRET-KEY": "s3cret", "Accept": "application/json"]
        let redacted = Redaction.headers(headers, secretNames: ["Authorization", "apca-api-secret-key"])
        #expect(redacted == ["authorization": "<redacted>", "APCA-API-SECRET-KEY": "<redacted>", "Accept": "application/json"])
    }

    @Test func freeTextLosesSecretValuesQueryFormsAndHeaderLines() {
        let text = """
            GET /v1/quote?symbol=AAPL&token=abc123 failed
            Authorization: Bearer xyz789
            the server said: key xyz789 is invalid
            """
        let redacted = Redaction.text(text, secretNames: ["token", "authorization"], secretValues: ["Bearer xyz789", "xyz789"])
        #expect(redacted == """
            GET /v1/quote?symbol=AAPL&token=<redacted> failed
            Authorization: <redacted>
            the server said: key <redacted> is invalid
            """)
        #expect(Redaction.text("nothing to hide", secretNames: ["token"]) == "nothing to hide")
    }

    @Test func bytesAreScannedEvenWhenTheyAreNotText() {
        let data = Data([0xFF, 0x00]) + Data("abc-key".utf8) + Data([0x80]) + Data("abc-key".utf8)
        let redacted = Redaction.data(data, secretValues: ["abc-key", ""])
        #expect(redacted == Data([0xFF, 0x00]) + Data("<redacted>".utf8) + Data([0x80]) + Data("<redacted>".utf8))
        #expect(Redaction.data(data, secretValues: [String]()) == data)
    }

    @Test func theSecretValuesOfARequestIncludeTheCredentialBehindAnAuthScheme() {
        var request = HTTPRequest(url: URL(string: "http://h/p?symbols=AAPL&apiKey=k%2B1")!)
        request.headerFields["Authorization"] = "Bearer tok-1"
        request.headerFields["APCA-API-KEY-ID"] = "id-1"
        request.headerFields["Accept"] = "application/json"
        let values = Set(Redaction.secretValues(in: request, secretNames: ["authorization", "apca-api-key-id", "apikey"]))
        #expect(values == ["Bearer tok-1", "tok-1", "id-1", "k+1", "k%2B1"])

        var basic = HTTPRequest(url: URL(string: "http://h/p")!)
        basic.headerFields["Authorization"] = "Basic " + Data("user:pa55word".utf8).base64EncodedString()
        let basicValues = Set(Redaction.secretValues(in: basic, secretNames: ["Authorization"]))
        #expect(basicValues.isSuperset(of: ["user:pa55word", "pa55word"]))
    }
}
