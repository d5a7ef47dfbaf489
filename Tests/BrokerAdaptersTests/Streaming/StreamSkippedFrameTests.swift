import Domain
import Foundation
import Testing

@testable import BrokerAdapters

/// Each broker's stream machine, fed a frame that does not decode: it emits `.skippedFrame` with a short,
/// printable reason that quotes nothing of the frame, and goes on with the next good frame.
@Suite struct StreamSkippedFrameTests {
    /// A frame cut off in a string that holds a secret: the reason must not echo it.
    private static let brokenFrame = #"[{"ev":"T","sym":"AAPL","token":"s3cret-\#u{1B}[2J"#

    /// One frame through the machine as the session feeds it: decoded, or reported skipped.
    private static func frame<M: StreamSessionMachine>(_ machine: inout M, _ text: String) -> [StreamSessionAction] {
        var events: [M.Event] = []
        if let skipped = M.decode(frame: text, into: &events) { return [skipped] }
        var actions: [StreamSessionAction] = []
        machine.receive(events[...], into: &actions)
        return actions
    }

    private static func skipped<M: StreamSessionMachine>(_ machine: inout M, _ text: String) -> String? {
        let actions = frame(&machine, text)
        guard actions.count == 1, case .emit(.skippedFrame(let reason)) = actions[0] else {
            Issue.record("expected one skipped frame, got \(actions)")
            return nil
        }
        return reason
    }

    private static func checkReason(_ reason: String?) {
        guard let reason else { return }
        #expect(reason.hasPrefix("malformed JSON at byte"), "\(reason)")
        #expect(!reason.contains("s3cret"))
        #expect(reason.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) })
        #expect(reason.count <= StreamSkippedFrameReason.maximumLength)
    }

    @Test func polygonSkipsTheFrameAndDecodesTheNext() {
        var machine = PolygonStreamStateMachine(apiKey: "k", credentialHint: "check POLYGON_API_KEY")
        _ = Self.frame(&machine, #"[{"ev":"status","status":"connected"}]"#)
        _ = Self.frame(&machine, #"[{"ev":"status","status":"auth_success"}]"#)
        _ = machine.subscribe(["AAPL"])

        Self.checkReason(Self.skipped(&machine, Self.brokenFrame))

        let next = Self.frame(&machine, #"[{"ev":"T","sym":"AAPL","p":190.5,"t":1700000000000}]"#)
        #expect(next.contains { if case .emit(.quote(let quote)) = $0 { quote.last == exactDecimal("190.5") } else { false } }, "\(next)")
    }

    @Test func finnhubSkipsTheFrameAndDecodesTheNext() {
        var machine = FinnhubStreamStateMachine(credentialHint: "check FINNHUB_TOKEN", secrets: ["s3cret"])
        _ = machine.subscribe(["AAPL"])

        Self.checkReason(Self.skipped(&machine, "{\"type\":\"trade\",\"data\":[{\"s\":\"AAPL\",\"p\":1"))

        let next = Self.frame(&machine, #"{"type":"trade","data":[{"s":"AAPL","p":190.5,"t":1700000000000}]}"#)
        #expect(next == [.emit(.quote(CommonQuote(symbol: "AAPL", last: exactDecimal("190.5"), timestamp: Date(timeIntervalSince1970: 1_700_000_000))))])
    }

    @Test func alpacaSkipsTheFrame() {
        var machine = AlpacaStreamStateMachine(keyID: "id", secretKey: "s3cret", credentialHint: "check APCA_API_KEY_ID", feed: "iex")
        Self.checkReason(Self.skipped(&machine, Self.brokenFrame))
    }

    @Test func tradierSkipsTheFrame() {
        var machine = TradierStreamStateMachine(sessionID: "s3cret", isSandbox: false, secrets: ["s3cret"], now: { Date(timeIntervalSince1970: 0) })
        _ = machine.subscribe(["AAPL"])
        Self.checkReason(Self.skipped(&machine, #"{"type":"trade","symbol":"AAPL","price":"1"#))
    }

    @Test func aFailureThatIsNotTheScannersSaysOnlyUndecodable() {
        struct Odd: Error, CustomStringConvertible { var description: String { "frame was \u{1B}[2J s3cret" } }
        #expect(StreamSkippedFrameReason.describe(Odd()) == "undecodable frame")
    }
}
