import Foundation
import Networking
import Testing

@Suite struct HTTPRequestTests {
    @Test func aRequestsMethodIsUppercasedAndItsDefaultsAreAGetWithoutBody() {
        var request = HTTPRequest(url: URL(string: "https://example.com/v1")!, method: "post")
        #expect(request.method == "POST")
        request.method = "patch"
        #expect(request.method == "PATCH")

        let plain = HTTPRequest(url: URL(string: "https://example.com/v1")!)
        #expect(plain.method == "GET")
        #expect(plain.body == nil)
        #expect(plain.headerFields.isEmpty)
    }
}
