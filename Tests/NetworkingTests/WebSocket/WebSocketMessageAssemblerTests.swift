import Foundation
@testable import Networking
import Testing

@Suite struct WebSocketMessageAssemblerTests {
    func events(_ frames: [WebSocketFrame], limit: Int = 16 << 20) throws(WebSocketError) -> [WebSocketMessageAssembler.Event] {
        var assembler = WebSocketMessageAssembler(maxMessageSize: limit)
        var events: [WebSocketMessageAssembler.Event] = []
        for frame in frames {
            if let event = try assembler.receive(frame) { events.append(event) }
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
        #expect(throws: WebSocketError.protocolViolation("text message is not valid UTF-8")) {
            try events([WebSocketFrame(opcode: .text, payload: [0xC3, 0x28])])
        }
        #expect(throws: WebSocketError.protocolViolation("text message is not valid UTF-8")) {
            try events([WebSocketFrame(fin: false, opcode: .text, payload: [0xED, 0xA0]), WebSocketFrame(opcode: .continuation, payload: [0x80])])
        }
    }

    @Test func rejectsBrokenFragmentationAndOversizedMessages() {
        #expect(throws: WebSocketError.protocolViolation("continuation frame without a message to continue")) {
            try events([WebSocketFrame(opcode: .continuation, payload: [1])])
        }
        #expect(throws: WebSocketError.protocolViolation("new binary message inside a fragmented one")) {
            try events([WebSocketFrame(fin: false, opcode: .text, payload: [0x61]), WebSocketFrame(opcode: .binary, payload: [1])])
        }
        #expect(throws: WebSocketError.protocolViolation("message of 12 bytes exceeds the 10-byte limit")) {
            try events([WebSocketFrame(fin: false, opcode: .binary, payload: Array(repeating: 0, count: 6)),
                        WebSocketFrame(opcode: .continuation, payload: Array(repeating: 0, count: 6))], limit: 10)
        }
    }

    @Test func closeFramesCarryCodeAndReason() throws {
        #expect(try events([WebSocketFrame(opcode: .close, payload: [])]) == [.close(code: 1005, reason: "")])
        #expect(try events([WebSocketFrame(opcode: .close, payload: [0x03, 0xE8] + Array("bye".utf8))]) == [.close(code: 1000, reason: "bye")])
        #expect(try events([WebSocketFrame(opcode: .close, payload: [0x0F, 0xA0])]) == [.close(code: 4000, reason: "")])
        for bad: [UInt8] in [[0x03], [0x03, 0xED], [0x03, 0xEE], [0x03, 0xF7], [0x0B, 0xB7]] {
            #expect(throws: WebSocketError.self) { try events([WebSocketFrame(opcode: .close, payload: bad)]) }
        }
        #expect(throws: WebSocketError.protocolViolation("close reason is not valid UTF-8")) {
            try events([WebSocketFrame(opcode: .close, payload: [0x03, 0xE8, 0xFF])])
        }
    }

    @Test func closePayloadFitsAControlFrameWithoutSplittingCharacters() {
        let payload = WebSocketMessageAssembler.closePayload(code: 1001, reason: String(repeating: "é", count: 100))
        #expect(payload.count <= 125)
        #expect(Array(payload.prefix(2)) == [0x03, 0xE9])
        #expect(String(validating: payload.dropFirst(2), as: UTF8.self) != nil)
    }
}
