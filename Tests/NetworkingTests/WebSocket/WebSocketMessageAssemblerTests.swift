import Domain
import Foundation
@testable import Networking
import Testing

@Suite struct WebSocketMessageAssemblerTests {
    func events(_ frames: [WebSocketFrame], limit: Int = 16 << 20) throws(WebSocketProtocolError) -> [WebSocketMessageAssembler.Event] {
        var assembler = WebSocketMessageAssembler(maxMessageSize: limit)
        var events: [WebSocketMessageAssembler.Event] = []
        for frame in frames {
            if let event = try assembler.push(frame) { events.append(event) }
        }
        return events
    }

    @Test func joinsFragmentsWithControlFramesBetweenThem() throws {
        let result = try events([
            WebSocketFrame(fin: false, opcode: .text, payload: Array("He".utf8)),
            WebSocketFrame(opcode: .ping, payload: [1]),
            WebSocketFrame(fin: false, opcode: .continuation, payload: Array("ll".utf8)),
            WebSocketFrame(opcode: .pong, payload: [2]),
            WebSocketFrame(opcode: .continuation, payload: Array("o".utf8)),
            WebSocketFrame(opcode: .binary, payload: [9, 9]),
        ])
        #expect(result == [.ping([1]), .pong([2]), .message(.text("Hello")), .message(.binary([9, 9]))])
    }

    @Test func validatesUTF8AcrossFragmentBoundaries() throws {
        // "é" is C3 A9, split over two frames: valid once joined.
        #expect(try events([
            WebSocketFrame(fin: false, opcode: .text, payload: [0x61, 0xC3]), WebSocketFrame(opcode: .continuation, payload: [0xA9]),
        ]) == [.message(.text("aé"))])
        #expect(throws: WebSocketProtocolError(closeCode: 1007, detail: "text message is not valid UTF-8")) {
            try events([WebSocketFrame(opcode: .text, payload: [0xC3, 0x28])])
        }
        #expect(throws: WebSocketProtocolError(closeCode: 1007, detail: "text message is not valid UTF-8")) {
            try events([WebSocketFrame(fin: false, opcode: .text, payload: [0xED, 0xA0]), WebSocketFrame(opcode: .continuation, payload: [0x80])])
        }
    }

    @Test func rejectsBrokenFragmentationAndOversizedMessages() {
        #expect(throws: WebSocketProtocolError.malformed("continuation frame without a message to continue")) {
            try events([WebSocketFrame(opcode: .continuation, payload: [1])])
        }
        #expect(throws: WebSocketProtocolError.malformed("new binary message before the previous fragmented message ended")) {
            try events([WebSocketFrame(fin: false, opcode: .text, payload: [0x61]), WebSocketFrame(opcode: .binary, payload: [1])])
        }
        #expect(throws: WebSocketProtocolError(closeCode: 1009, detail: "message of more than 10 bytes")) {
            try events([WebSocketFrame(fin: false, opcode: .binary, payload: Array(repeating: 0, count: 6)),
                        WebSocketFrame(opcode: .continuation, payload: Array(repeating: 0, count: 6))], limit: 10)
        }
    }

    @Test func closeFramesCarryCodeAndReason() throws {
        #expect(try events([WebSocketFrame(opcode: .close, payload: [])]) == [.close(WebSocketCloseFrame(code: nil))])
        #expect(try events([WebSocketFrame(opcode: .close, payload: [0x03, 0xE8] + Array("bye".utf8))]) == [.close(WebSocketCloseFrame(code: 1000, reason: "bye"))])
        #expect(try events([WebSocketFrame(opcode: .close, payload: [0x0F, 0xA0])]) == [.close(WebSocketCloseFrame(code: 4000))])
        for bad: [UInt8] in [[0x03], [0x03, 0xED], [0x03, 0xEE], [0x03, 0xF7], [0x0B, 0xB7]] {
            #expect(throws: WebSocketProtocolError.self) { try events([WebSocketFrame(opcode: .close, payload: bad)]) }
        }
        #expect(throws: WebSocketProtocolError(closeCode: 1007, detail: "close reason is not valid UTF-8")) {
            try events([WebSocketFrame(opcode: .close, payload: [0x03, 0xE8, 0xFF])])
        }
    }

    @Test func textEndingInsideACharacterIsRejected() {
        #expect(throws: WebSocketProtocolError(closeCode: 1007, detail: "text message ends inside a UTF-8 character")) {
            try events([WebSocketFrame(opcode: .text, payload: [0x61, 0xE2, 0x82])])
        }
    }

    @Test(arguments: [
        ([0xC0, 0x80] as [UInt8], false), // overlong NUL
        ([0xE0, 0x80, 0x80], false), // overlong
        ([0xED, 0xA0, 0x80], false), // surrogate U+D800
        ([0xF4, 0x90, 0x80, 0x80], false), // above U+10FFFF
        ([0xF0, 0x9F, 0x98, 0x80], true), // U+1F600
        ([0xEF, 0xBF, 0xBF], true), // U+FFFF
    ])
    func utf8ValidatorFollowsTable3_7(_ bytes: [UInt8], valid: Bool) {
        #expect(WebSocketUTF8Validator.isValid(bytes) == valid)
        #expect((String(validating: bytes, as: UTF8.self) != nil) == valid, "agrees with the standard library")
    }

    /// What the assembler makes of `payload`, as a message of one frame or split into fragments at
    /// `splits`: the events, or the error.
    func outcome(
        _ payload: [UInt8], opcode: WebSocketOpcode = .text, splits: [Int] = [], limit: Int = 16 << 20
    ) -> Result<[WebSocketMessageAssembler.Event], WebSocketProtocolError> {
        let ends = splits + [payload.count]
        var frames: [WebSocketFrame] = []
        var start = 0
        for (index, end) in ends.enumerated() {
            frames.append(WebSocketFrame(
                fin: index == ends.count - 1, opcode: index == 0 ? opcode : .continuation, payload: Array(payload[start..<end])))
            start = end
        }
        return Result { () throws(WebSocketProtocolError) in try events(frames, limit: limit) }
    }

    /// A message in one frame takes the whole-message path (ASCII told a word at a time, else the
    /// standard library's check); in fragments, the incremental validator's. Both give the same message or the same error, for every payload here
    /// split at every place, and for seeded random bytes (mostly ASCII with bytes of every kind mixed in).
    @Test func aMessageInOneFrameIsReadAsItsFragmentsAre() {
        var payloads: [[UInt8]] = [
            [], Array("{\"type\":\"quote\",\"symbol\":\"SPY\",\"bid\":281.84}".utf8), Array("aé€😀".utf8),
            [0xC3, 0x28], [0x61, 0xE2, 0x82], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF0, 0x9F, 0x98], [0xFF], [0x80], Array("ok".utf8) + [0xF5, 0x80, 0x80, 0x80],
        ]
        var random = SplitMix64(seed: 18)
        let bytes: [UInt8] = [0x41, 0x7F, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0xA0, 0x9F, 0x90, 0x8F]
        for _ in 0..<400 {
            payloads.append((0..<Int(random.next() % 12)).map { _ in
                random.next() % 3 == 0 ? bytes[Int(random.next() % UInt64(bytes.count))] : UInt8(0x20 + random.next() % 0x5F)
            })
        }
        var invalid = 0
        for payload in payloads {
            let whole = outcome(payload)
            if WebSocketUTF8Validator.isValid(payload) {
                #expect(whole == .success([.message(.text(String(decoding: payload, as: UTF8.self)))]), "\(payload)")
            } else {
                invalid += 1
                #expect(throws: WebSocketProtocolError.self, "\(payload)") { try whole.get() }
            }
            for split in 0...payload.count {
                #expect(outcome(payload, splits: [split]) == whole, "\(payload) split at \(split)")
            }
            #expect(outcome(payload, opcode: .binary) == .success([.message(.binary(payload))]))
        }
        #expect(invalid > 100 && invalid < payloads.count - 100, "the sweep has both kinds: \(invalid) of \(payloads.count) invalid")
        // The size limit holds for a whole message too.
        let eleven = Array(repeating: UInt8(0x61), count: 11)
        #expect(outcome(eleven, limit: 10) == .failure(WebSocketProtocolError(closeCode: 1009, detail: "message of more than 10 bytes")))
        #expect(outcome(eleven, limit: 10) == outcome(eleven, splits: [5], limit: 10))
        #expect(outcome(Array(eleven.dropFirst()), limit: 10) == .success([.message(.text("aaaaaaaaaa"))]))
    }

    /// The eight-bytes-at-a-time ASCII test finds a byte above 0x7F at every place of every length up to
    /// 40 (whole words, the tail, both), and passes every all-ASCII run.
    @Test func theASCIITestFindsAHighByteAnywhere() {
        for length in 0...40 {
            let ascii = (0..<length).map { UInt8(0x20 + $0 % 0x5F) }
            #expect(WebSocketMessageAssembler.isASCII(ascii), "\(length) ASCII bytes")
            #expect(WebSocketMessageAssembler.isASCII(ascii.map { _ in 0x7F }))
            for place in 0..<length {
                for high: UInt8 in [0x80, 0xC3, 0xFF] {
                    var bytes = ascii
                    bytes[place] = high
                    #expect(!WebSocketMessageAssembler.isASCII(bytes), "0x\(String(high, radix: 16)) at \(place) of \(length)")
                }
            }
        }
    }

    @Test func closePayloadFitsAControlFrameWithoutSplittingCharacters() {
        let payload = WebSocketCloseFrame(code: 1001, reason: String(repeating: "é", count: 100)).payload
        #expect(payload.count <= 125)
        #expect(Array(payload.prefix(2)) == [0x03, 0xE9])
        #expect(String(validating: payload.dropFirst(2), as: UTF8.self) != nil)
    }
}
