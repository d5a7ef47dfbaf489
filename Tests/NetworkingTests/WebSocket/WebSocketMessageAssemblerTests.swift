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

    @Test func closePayloadFitsAControlFrameWithoutSplittingCharacters() {
        let payload = WebSocketCloseFrame(code: 1001, reason: String(repeating: "é", count: 100)).payload
        #expect(payload.count <= 125)
        #expect(Array(payload.prefix(2)) == [0x03, 0xE9])
        #expect(String(validating: payload.dropFirst(2), as: UTF8.self) != nil)
    }
}
