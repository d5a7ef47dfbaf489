import Foundation
@testable import Networking
import Testing

/// The bytes written for an `HTTPRequest`.
@Suite struct HTTPOutgoingRequestTests {
    func text(_ request: HTTPOutgoingRequest) -> String { String(decoding: request.bytes, as: UTF8.self) }

    @Test func aGetCarriesTargetHostTheRequestsHeadersSortedAndOurs() throws {
        var request = HTTPRequest(url: URL(string: "https://api.example.com/v1/markets/quotes?symbols=AAPL,MSFT&x=%20y")!)
        request.headerFields["Authorization"] = "Bearer secret"
        request.headerFields["Accept"] = "application/json"

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
        var request = HTTPRequest(url: URL(string: "http://127.0.0.1:8080/v1/orders")!)
        request.method = "post"
        request.body = Data("side=buy&qty=1".utf8)
        request.headerFields["Content-Type"] = "application/x-www-form-urlencoded"
        request.headerFields["Content-Length"] = "99"
        request.headerFields["Accept-Encoding"] = "gzip"
        request.headerFields["Connection"] = "close"
        request.headerFields["Host"] = "elsewhere"

        let outgoing = try HTTPOutgoingRequest(request)

        #expect(text(outgoing) == "POST /v1/orders HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Accept-Encoding: identity\r\nConnection: keep-alive\r\nContent-Length: 14\r\n\r\nside=buy&qty=1")
        #expect(outgoing.place == "127.0.0.1:8080")
        #expect(!outgoing.isIdempotent)
    }

    @Test func anEmptyPostSaysContentLengthZeroAndAGetWithoutBodySaysNothing() throws {
        var post = HTTPRequest(url: URL(string: "https://example.com")!)
        post.method = "POST"

        #expect(text(try HTTPOutgoingRequest(post)).hasPrefix("POST / HTTP/1.1\r\n"))
        #expect(text(try HTTPOutgoingRequest(post)).hasSuffix("Content-Length: 0\r\n\r\n"))
        #expect(!text(try HTTPOutgoingRequest(HTTPRequest(url: URL(string: "https://example.com/")!))).contains("Content-Length"))
    }

    @Test func theHostHeaderNamesTheNonDefaultPortAndBracketsIPv6() throws {
        func host(_ url: String) throws -> String? {
            text(try HTTPOutgoingRequest(HTTPRequest(url: URL(string: url)!))).split(separator: "\r\n").first { $0.hasPrefix("Host: ") }.map { String($0.dropFirst(6)) }
        }

        #expect(try host("http://Example.COM:80/") == "example.com")
        #expect(try host("https://example.com:8443/") == "example.com:8443")
        #expect(try host("http://[::1]:8080/") == "[::1]:8080")
        #expect(try HTTPOutgoingRequest(HTTPRequest(url: URL(string: "http://[::1]:8080/")!)).origin == HTTPOrigin(usesTLS: false, host: "::1", port: 8080))
    }

    @Test func requestsThatCannotBeWrittenAreRefusedWithoutQuotingValues() {
        func error(_ configure: (inout HTTPRequest) -> Void, url: String = "https://example.com/") -> HTTPRequestError? {
            var request = HTTPRequest(url: URL(string: url)!)
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
        #expect(error({ $0.method = "GET /x" }) == .invalidMethod)
        #expect(error({ $0.headerFields["Bad Name"] = "1" }) == .invalidHeaderField(name: "Bad Name"))
        #expect(HTTPRequestError.invalidHeaderField(name: "X-Token").description == "invalid request header X-Token")
        #expect(HTTPRequestError.invalidHeaderField(name: "X\u{1B}[2J").description == "invalid request header name")
    }

    /// A line break in a value would let the rest pass for header fields of its own: the request is refused,
    /// naming the field but not quoting its value. (Foundation's `URLRequest` dropped such a field silently.)
    @Test func aValueWithALineBreakNeverBecomesAHeaderOfItsOwn() throws {
        for value in ["a\r\nX-Injected: 1", "a\nX-Injected: 1", "a\rb", "a\u{0}b"] {
            var request = HTTPRequest(url: URL(string: "https://example.com/")!)
            request.headerFields["X-Token"] = value

            #expect(throws: HTTPRequestError.invalidHeaderField(name: "X-Token")) { try HTTPOutgoingRequest(request) }
        }
    }

    /// What Foundation's `URLRequest` on Linux sent: names as `String.capitalized` spells them, written in
    /// the order of their lowercased names, one field per name in any case (the last value set wins).
    @Test func headerNamesAreCapitalizedAndWrittenInOrderOfTheirLowercasedNames() throws {
        var request = HTTPRequest(url: URL(string: "https://example.com/")!)
        request.headerFields["APCA-API-SECRET-KEY"] = "s"
        request.headerFields["x-finnhub-token"] = "t"
        request.headerFields["APCA-API-KEY-ID"] = "k"
        request.headerFields["user-agent"] = "first"
        request.headerFields["User-Agent"] = "commonbroker/test"

        #expect(text(try HTTPOutgoingRequest(request)) == "GET / HTTP/1.1\r\nHost: example.com\r\n"
            + "Apca-Api-Key-Id: k\r\nApca-Api-Secret-Key: s\r\nUser-Agent: commonbroker/test\r\nX-Finnhub-Token: t\r\n"
            + "Accept-Encoding: identity\r\nConnection: keep-alive\r\n\r\n")
    }
}
