import TestSupport
import Domain
import Foundation
import Locking
import Networking
import Testing

@Suite struct RecordReplayTests {
    @Test func recordedAgainstTheServerReplaysWithoutItAndKeepsNoSecret() async throws {
        try await TemporaryDirectory.withAsync { temporary in
            let folder = temporary.path("recordings")
            let server = try await FixtureServer.start()
            let recorder = try RecordingRequestServicer(wrapping: SocketRequestServicer(), directory: folder)
            let quotesRequest = SelftestRequests.quotes(baseURL: server.baseURL, apiKey: SelftestRequests.apiKey)
            let echoRequest = SelftestRequests.quotes(baseURL: server.baseURL, path: "/v1/echo", apiKey: SelftestRequests.apiKey)
            let binaryRequest = SelftestRequests.quotes(baseURL: server.baseURL, path: "/v1/binary", apiKey: SelftestRequests.apiKey)

            let recorded = try await recorder.perform(quotesRequest)
            let recordedEcho = await brokerError { () async throws(BrokerError) in try await recorder.perform(echoRequest) }
            let binary = try await recorder.send(binaryRequest.httpRequest, secretNames: binaryRequest.secretNames)
            await server.stop()

            let replayer = try ReplayingRequestServicer(directory: folder)
            let replayed = try await replayer.perform(quotesRequest)
            let replayedEcho = await brokerError { () async throws(BrokerError) in try await replayer.perform(echoRequest) }
            let replayedBinary = try await replayer.send(binaryRequest.httpRequest, secretNames: binaryRequest.secretNames)

            #expect(recorded == SelftestQuotes(symbols: ["AAPL", "MSFT"], price: 189.84, note: "café"))
            #expect(replayed == recorded)
            #expect(recordedEcho == .unauthorized(hint: "check SELFTEST_TOKEN"))
            #expect(replayedEcho == recordedEcho)
            #expect(binary.body == (try SelftestRequests.bytes(of: "binary.bin")))
            // The secret echoed inside the binary body was redacted before the bytes were stored.
            #expect(replayedBinary.body == Data([0x00, 0xFF, 0xFE, 0x01]) + Data("<redacted>".utf8) + Data([0x80, 0x81]))
            #expect(try TemporaryDirectory.listing(folder) == ["0001-GET-v1-quotes.json", "0002-GET-v1-echo.json", "0003-GET-v1-binary.json"])
            #expect(try TemporaryDirectory.permissions(folder) == 0o700)

            for name in try TemporaryDirectory.listing(folder) {
                let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
                #expect(try TemporaryDirectory.permissions(folder.appendingPathComponent(name)) == 0o600)
                for secret in [SelftestRequests.token, SelftestRequests.apiKey] {
                    #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(name) holds \(secret)")
                    #expect(bytes.range(of: Data(Data(secret.utf8).base64EncodedString().utf8)) == nil, "\(name) holds \(secret) in base64")
                }
                let exchange = try JSONDecoder().decode(RecordedExchange.self, from: bytes)
                #expect(exchange.request.headers["Authorization"] == "<redacted>")
                #expect(exchange.request.url.contains("apiKey=<redacted>"))
                #expect(exchange.httpResponse.map { $0.body.range(of: Data(SelftestRequests.token.utf8)) == nil } == true)
            }
        }
    }

    @Test func aRecordingIsPrettyRedactedJSON() async throws {
        try await TemporaryDirectory.withAsync { temporary in
            let upstream = StubServicer { _ throws(BrokerError) in
                HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"last":1.5}"#.utf8))
            }
            let recorder = try RecordingRequestServicer(wrapping: upstream, directory: temporary.url)
            var request = HTTPRequest(url: URL(string: "https://api.example.com/v1/markets/quotes?symbols=AAPL&token=s3cr3t-value")!)
            request.headerFields["Authorization"] = "Bearer s3cr3t-bearer"

            _ = try await recorder.send(request, secretNames: ["authorization", "token"])

            let text = try String(contentsOf: temporary.path("0001-GET-v1-markets-quotes.json"), encoding: .utf8)
            #expect(text == """
                {
                  "request" : {
                    "headers" : {
                      "Authorization" : "<redacted>"
                    },
                    "method" : "GET",
                    "secretNames" : [
                      "authorization",
                      "token"
                    ],
                    "url" : "https://api.example.com/v1/markets/quotes?symbols=AAPL&token=<redacted>"
                  },
                  "response" : {
                    "body" : "{\\"last\\":1.5}",
                    "bodyEncoding" : "utf8",
                    "headers" : {
                      "content-type" : "application/json"
                    },
                    "status" : 200
                  }
                }

                """)
        }
    }

    @Test func concurrentExchangesAreNumberedWithoutGapsOrCollisions() async throws {
        try await TemporaryDirectory.withAsync { temporary in
            let upstream = StubServicer { request throws(BrokerError) in
                HTTPResponse(status: 200, body: Data((request.url.query ?? "").utf8))
            }
            let recorder = try RecordingRequestServicer(wrapping: upstream, directory: temporary.url)

            await withTaskGroup(of: Void.self) { group in
                for index in 1...24 {
                    group.addTask {
                        _ = try? await recorder.send(HTTPRequest(url: URL(string: "http://h/v2/last?i=\(index)")!), secretNames: [])
                    }
                }
            }

            let names = try TemporaryDirectory.listing(temporary.url)
            #expect(names == (1...24).map { String(format: "%04d-GET-v2-last.json", $0) })
            let bodies = try names.map { try JSONDecoder().decode(RecordedExchange.self, from: Data(contentsOf: temporary.path($0))).response.body }
            #expect(Set(bodies) == Set((1...24).map { "i=\($0)" }))
            #expect(recorder.failures.isEmpty)
        }
    }

    @Test func recordingAgainIntoAFolderContinuesItsNumbering() async throws {
        try await TemporaryDirectory.withAsync { temporary in
            let upstream = StubServicer { _ throws(BrokerError) in HTTPResponse(status: 204) }
            let request = HTTPRequest(url: URL(string: "http://h/v1/clock")!)
            _ = try await RecordingRequestServicer(wrapping: upstream, directory: temporary.url).send(request, secretNames: [])
            _ = try await RecordingRequestServicer(wrapping: upstream, directory: temporary.url).send(request, secretNames: [])

            #expect(try TemporaryDirectory.listing(temporary.url) == ["0001-GET-v1-clock.json", "0002-GET-v1-clock.json"])
        }
    }

    @Test func aPollingSessionReplaysInOrderThenHoldsTheLastAnswer() async throws {
        try await TemporaryDirectory.withAsync { temporary in
            let price = Locked(100)
            let upstream = StubServicer { _ throws(BrokerError) in
                HTTPResponse(status: 200, body: Data("\(price.withLock { value in value += 1; return value })".utf8))
            }
            let recorder = try RecordingRequestServicer(wrapping: upstream, directory: temporary.url)
            let recordedRequest = HTTPRequest(url: URL(string: "http://127.0.0.1:4000/v1/quotes?symbols=AAPL&token=abc123&greeks=false")!)
            for _ in 1...3 { _ = try await recorder.send(recordedRequest, secretNames: ["token"]) }
            _ = try await recorder.send(HTTPRequest(url: URL(string: "http://127.0.0.1:4000/v1/clock")!), secretNames: [])

            let replayer = try ReplayingRequestServicer(directory: temporary.url)
            // Another host, another token, another query order: still the same request.
            let replayedRequest = HTTPRequest(url: URL(string: "https://api.tradier.com/v1/quotes?greeks=false&token=other&symbols=AAPL")!)
            var answers: [String] = []
            for _ in 1...5 {
                let response = try await replayer.send(replayedRequest, secretNames: ["token"])
                answers.append(String(decoding: response.body, as: UTF8.self))
            }
            let clock = try await replayer.send(HTTPRequest(url: URL(string: "http://x/v1/clock")!), secretNames: [])

            #expect(answers == ["101", "102", "103", "103", "103"])
            #expect(clock.body == Data("104".utf8))
        }
    }

    @Test func anUnrecordedRequestSaysHowToRecordItWithoutItsSecrets() async throws {
        try await TemporaryDirectory.withAsync { temporary in
            let upstream = StubServicer { _ throws(BrokerError) in HTTPResponse(status: 200) }
            let recorder = try RecordingRequestServicer(wrapping: upstream, directory: temporary.url)
            _ = try await recorder.send(HTTPRequest(url: URL(string: "http://h/v1/quotes?symbols=AAPL&token=abc123")!), secretNames: ["token"])
            let replayer = try ReplayingRequestServicer(directory: temporary.url)

            let otherSymbol = await brokerError { () async throws(BrokerError) in
                try await replayer.send(HTTPRequest(url: URL(string: "http://h/v1/quotes?symbols=MSFT&token=zzz999")!), secretNames: [])
            }
            var post = HTTPRequest(url: URL(string: "http://h/v1/quotes?symbols=AAPL&token=abc123")!)
            post.method = "POST"
            let otherMethod = await brokerError { () async throws(BrokerError) in try await replayer.send(post, secretNames: ["token"]) }

            // The token was declared secret only when recording: the replayer still hides it.
            #expect(otherSymbol == .network("no recording for GET /v1/quotes?symbols=MSFT&token=<redacted>; record one with --record DIR"))
            #expect(otherMethod == .network("no recording for POST /v1/quotes?symbols=AAPL&token=<redacted>; record one with --record DIR"))
        }
    }

    @Test func aCorruptRecordingIsNamed() async throws {
        try await TemporaryDirectory.withAsync { temporary in
            let upstream = StubServicer { _ throws(BrokerError) in HTTPResponse(status: 200) }
            let recorder = try RecordingRequestServicer(wrapping: upstream, directory: temporary.url)
            _ = try await recorder.send(HTTPRequest(url: URL(string: "http://h/v1/clock")!), secretNames: [])
            try Data("{\"request\": {\"method\": \"GET\"".utf8).write(to: temporary.path("0002-GET-v1-clock.json"))
            try Data(#"{"request": {"method": "GET", "url": "http://h/v1/x", "headers": {}, "secretNames": []}}"#.utf8)
                .write(to: temporary.path("0003-GET-v1-x.json"))

            #expect(throws: RecordingError.corruptRecording(file: "0002-GET-v1-clock.json", reason: "not valid JSON")) {
                try ReplayingRequestServicer(directory: temporary.url)
            }
            try FileManager.default.removeItem(at: temporary.path("0002-GET-v1-clock.json"))
            let missingResponse = RecordingError.corruptRecording(file: "0003-GET-v1-x.json", reason: "missing response")
            #expect(throws: missingResponse) { try ReplayingRequestServicer(directory: temporary.url) }
            #expect(missingResponse.description == "recording 0003-GET-v1-x.json is corrupt (missing response); fix or delete it, or record again")
        }
    }

    @Test func anEmptyOrMissingFolderFailsAtStart() async throws {
        try await TemporaryDirectory.withAsync { temporary in
            #expect(throws: RecordingError.noRecordings(temporary.url.path)) { try ReplayingRequestServicer(directory: temporary.url) }
            #expect(throws: RecordingError.self) { try ReplayingRequestServicer(directory: temporary.path("absent")) }
        }
    }

    @Test func fileNamesComeFromMethodAndPath() {
        #expect(RecordingRequestServicer.fileName(number: 1, method: "GET", path: "/v1/markets/quotes") == "0001-GET-v1-markets-quotes.json")
        #expect(RecordingRequestServicer.fileName(number: 12345, method: "post", path: "/v2/stocks/BRK.B/snapshot") == "12345-POST-v2-stocks-BRK.B-snapshot.json")
        #expect(RecordingRequestServicer.fileName(number: 7, method: "GET", path: "/") == "0007-GET.json")
        #expect(RecordingRequestServicer.fileName(number: 8, method: "GET", path: "/a/../../etc passwd") == "0008-GET-a-..-..-etc-passwd.json")
    }
}
