import Domain
import Foundation
import Networking
import Testing

@Suite struct HTTPStatusMappingTests {
    let now = Date(timeIntervalSince1970: 1_731_528_900)

    @Test func successIsNoError() {
        #expect(HTTPStatusMapping.error(for: HTTPResponse(status: 204), credentialHint: "") == nil)
    }

    @Test func rejectedCredentialsCarryTheHint() {
        let error = HTTPStatusMapping.error(for: HTTPResponse(status: 401, body: Data("Invalid Access Token".utf8)), credentialHint: "check TRADIER_TOKEN")
        #expect(error == .unauthorized(hint: "check TRADIER_TOKEN"))
        #expect(error?.description == "unauthorized, check TRADIER_TOKEN")
    }

    @Test func rateLimitReadsRetryAfterOrTheResetHeaders() {
        let seconds = HTTPResponse(status: 429, headers: ["Retry-After": "7"])
        #expect(HTTPStatusMapping.error(for: seconds, credentialHint: "", now: now) == .rateLimited(retryAfter: 7))
        let epochMilliseconds = HTTPResponse(status: 429, headers: ["X-Ratelimit-Expiry": "1731528960000"])
        #expect(HTTPStatusMapping.retryAfter(epochMilliseconds, now: now) == 60)
        let epochSeconds = HTTPResponse(status: 429, headers: ["x-ratelimit-reset": "1731528930"])
        #expect(HTTPStatusMapping.retryAfter(epochSeconds, now: now) == 30)
        let httpDate = HTTPResponse(status: 429, headers: ["Retry-After": "Wed, 13 Nov 2024 20:15:10 GMT"])
        #expect(HTTPStatusMapping.retryAfter(httpDate, now: now) == 10)
        #expect(HTTPStatusMapping.error(for: HTTPResponse(status: 429), credentialHint: "", now: now) == .rateLimited(retryAfter: nil))
    }

    @Test func serverFaultsAndOtherStatuses() {
        #expect(HTTPStatusMapping.error(for: HTTPResponse(status: 503), credentialHint: "") == .server(status: 503))
        let teapot = HTTPStatusMapping.error(for: HTTPResponse(status: 418, body: Data("short\u{1B}[31m and stout".utf8)), credentialHint: "")
        #expect(teapot == .badResponse("HTTP 418: short [31m and stout"))
    }

    @Test func contextPicksOverridesThenTheEnvironment() throws {
        struct NoServicer: RequestServicer {
            func send(_ request: HTTPRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse { throw .cancelled }
        }
        let production = URL(string: "https://api.example.com")!
        let sandbox = URL(string: "https://sandbox.example.com")!
        var context = ServiceContext(environment: .sandbox, servicer: NoServicer())
        #expect(try context.baseURL(for: "x", production: production, sandbox: sandbox).get() == sandbox)
        #expect(context.baseURL(for: "x", production: production, sandbox: nil) == .failure(.badBaseURL("x has no sandbox")))
        context.baseURLOverrides["x"] = URL(string: "http://127.0.0.1:9")!
        #expect(try context.baseURL(for: "x", production: production, sandbox: nil).get().absoluteString == "http://127.0.0.1:9")
    }
}
