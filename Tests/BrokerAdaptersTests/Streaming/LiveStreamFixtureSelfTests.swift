import Testing

/// The stream fixture server checked against an independent client (Python `websockets`), edge cases
/// included that the Swift tests do not reach: auth timeouts, 400/401/403 from Alpaca, header auth,
/// Polygon's AM bars, Alpaca's timestamp precisions, Tradier's filter defaults and session expiry, and
/// REST routes served beside the stream, malformed frames among good ones, connections dropped on a
/// timer and the status file `make soak` reads. See Tests/Fixtures/streams/stream_fixture_selftest.py.
@Suite struct LiveStreamFixtureSelfTests {
    @Test func everyBrokersFixturePassesItsProtocolChecks() async throws {
        let (passed, output) = try await LiveStreamFixture.runSelfTest()
        #expect(passed, "\(output)")
        #expect(output.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count == 11, "\(output)")
    }
}
