import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Networking
import Testing

/// The bytes written for a `URLRequest`.
@Suite struct HTTPOutgoingRequestTests {
    func text(_ request: HTTPOutgoingRequest) -> String { String(decoding: request.bytes, as: UTF8.self) }

    @Test func aGetCarriesTargetHostTheRequestsHeadersSortedAndOurs() throws {
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/markets/quotes?symbols=AAPL,MSFT&x=%20y")!)
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")

        let outgoing = try HTTPOutgoingRequest(request)

        #expect(text(outgoing) == """
            GET /v1/markets/quotes?symbols=AAPL,MSFT&x=%20y HTTP/1.1\r
            Host: api.example.com\r
            Accept: application/json\r
            Authorization: Bearer secret\r
            Accept-Encoding: identity\r
            Connection: keep-alive\r
            \r

            """)
        #expect(outgoing.origin == HTTPOrigin(usesTLS: true, host: "api.example.com", port: 443))
        #expect(outgoing.place == "api.example.com")
        #expect(outgoing.isIdempotent)
    }

    @Test func aPostCarriesItsBodyAndItsLengthAndTheClientOwnsTheFraming() throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:8080/v1/orders")!)
        request.httpMethod = "post"
        request.httpBody = Data("side=buy&qty=1".utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("99", forHTTPHeaderField: "Content-Length")
        request.setValue("gzip", forHTTPHeaderField: "Accept-Encoding")
        request.setValue("close", forHTTPHeaderField: "Connection")
        request.setValue("elsewhere", forHTTPHeaderField: "Host")

        let outgoing = try HTTPOutgoingRequest(request)

        #expect(text(outgoing) == "POST /v1/orders HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Accept-Encoding: identity\r\nConnection: keep-alive\r\nContent-Length: 14\r\n\r\nside=buy&qty=1")
        #expect(outgoing.place == "127.0.0.1:8080")
        #expect(!outgoing.isIdempotent)
    }

    @Test func anEmptyPostSaysContentLengthZeroAndAGetWithoutBodySaysNothing() throws {
        var post = URLRequest(url: URL(string: "https://example.com")!)
        post.httpMethod = "POST"

        #expect(text(try HTTPOutgoingRequest(post)).hasPrefix("POST / HTTP/1.1\r\n"))
        #expect(text(try HTTPOutgoingRequest(post)).hasSuffix("Content-Length: 0\r\n\r\n"))
        #expect(!text(try HTTPOutgoingRequest(URLRequest(url: URL(string: "https://example.com/")!))).contains("Content-Length"))
    }

    @Test func theHostHeaderNamesTheNonDefaultPortAndBracketsIPv6() throws {
        func host(_ url: String) throws -> String? {
            text(try HTTPOutgoingRequest(URLRequest(url: URL(string: url)!))).split(separator: "\r\n").first { $0.hasPrefix("Host: ") }.map { String($0.dropFirst(6)) }
        }

        #expect(try host("http://Example.COM:80/") == "example.com")
        #expect(try host("https://example.com:8443/") == "example.com:8443")
        #expect(try host("http://[::1]:8080/") == "[::1]:8080")
        #expect(try HTTPOutgoingRequest(URLRequest(url: URL(string: "http://[::1]:8080/")!)).origin == HTTPOrigin(usesTLS: false, host: "::1", port: 8080))
    }

    @Test func requestsThatCannotBeWrittenAreRefusedWithoutQuotingValues() {
        func error(_ configure: (inout URLRequest) -> Void, url: String = "https://example.com/") -> HTTPRequestError? {
            var request = URLRequest(url: URL(string: url)!)
            configure(&request)
            do {
                _ = try HTTPOutgoingRequest(request)
                return nil
            } catch {
                return error
            }
        }

        #expect(error({ _ in }, url: "ftp://example.com/") == .unsupportedURL)
        #expect(error({ _ in }, url: "file:///etc/passwd") == .unsupportedURL)
        #expect(error({ $0.httpMethod = "GET /x" }) == .invalidMethod)
        #expect(error({ $0.setValue("1", forHTTPHeaderField: "Bad Name") }) == .invalidHeaderField(name: "Bad Name"))
        #expect(error({ $0.httpBodyStream = InputStream(data: Data()) }) == .bodyStreamUnsupported)
        #expect(HTTPRequestError.invalidHeaderField(name: "X-Token").description == "invalid request header X-Token")
        #expect(HTTPRequestError.invalidHeaderField(name: "X\u{1B}[2J").description == "invalid request header name")
    }

    /// A line break in a value would let the rest pass for header fields of its own. Foundation's
    /// `URLRequest` drops such values already; the request's bytes are checked all the same.
    @Test func aValueWithALineBreakNeverBecomesAHeaderOfItsOwn() throws {
        var request = URLRequest(url: URL(string: "https://example.com/")!)
        request.setValue("a\r\nX-Injected: 1", forHTTPHeaderField: "X-Token")

        #expect(!text(try HTTPOutgoingRequest(request)).contains("X-Injected"))
    }
}
