import Testing
import TerminalKit
@testable import TerminalCurses

@Suite struct CursesKeyDecoderTests {
    @Test(arguments: [
        (CursesInput.character(13), KeyPress.enter),
        (.mouse(MouseEvent(.press, column: 4, row: 7)), .mouse(MouseEvent(.press, column: 4, row: 7))),
        (.mouse(MouseEvent(.wheelDown, column: 0, row: 3)), .mouse(MouseEvent(.wheelDown, column: 0, row: 3))),
        (.character(10), .enter),
        (.keyCode(CursesKeyCode.enter), .enter),
        (.character(127), .backspace),
        (.character(8), .backspace),
        (.keyCode(CursesKeyCode.backspace), .backspace),
        (.keyCode(CursesKeyCode.delete), .delete),
        (.character(27), .escape),
        (.character(9), .tab),
        (.keyCode(CursesKeyCode.up), .up),
        (.keyCode(CursesKeyCode.down), .down),
        (.keyCode(CursesKeyCode.left), .left),
        (.keyCode(CursesKeyCode.right), .right),
        (.keyCode(CursesKeyCode.pageUp), .pageUp),
        (.keyCode(CursesKeyCode.pageDown), .pageDown),
        (.keyCode(CursesKeyCode.home), .home),
        (.keyCode(CursesKeyCode.end), .end),
        (.keyCode(CursesKeyCode.keypadUpperLeft), .home),
        (.keyCode(CursesKeyCode.keypadLowerLeft), .end),
        (.keyCode(CursesKeyCode.keypadUpperRight), .pageUp),
        (.keyCode(CursesKeyCode.keypadLowerRight), .pageDown),
        (.keyCode(CursesKeyCode.resize), .resize),
        (.character(1), .control("a")),
        (.character(3), .control("c")),
        (.character(11), .control("k")),
        (.character(12), .control("l")),
        (.character(26), .control("z")),
        (.character(0x61), .character("a")),
        (.character(0x41), .character("A")),
        (.character(0x20), .character(" ")),
        (.character(0x2F), .character("/")),
        (.character(0xE9), .character("é")),
        (.character(0x20AC), .character("€")),
        (.character(0x1F600), .character("😀")),
    ])
    func decodesKey(input: CursesInput, expected: KeyPress) {
        #expect(CursesKeyDecoder.decode(input) == expected)
    }

    @Test(arguments: [
        CursesInput.character(0),
        .character(28),
        .character(31),
        .character(0x85),
        .character(0x9B),
        .character(0xD800),
        .character(0x110000),
        .keyCode(Int32(0o410)),
        .keyCode(-1),
    ])
    func ignoresKeysTheAppCannotUse(input: CursesInput) {
        #expect(CursesKeyDecoder.decode(input) == nil)
    }

    @Test func controlLettersSkipBackspaceTabLineFeedAndReturn() {
        let controls = (1...26).compactMap { code -> Character? in
            if case .control(let letter) = CursesKeyDecoder.decode(.character(UInt32(code))) { return letter }
            return nil
        }
        #expect(String(controls) == "abcdefgklnopqrstuvwxyz")
    }

    @Test func readsGetWchStatus() {
        #expect(CursesInput(status: 0, value: 0x61) == .character(0x61))
        #expect(CursesInput(status: CursesKeyCode.codeYes, value: UInt32(CursesKeyCode.up)) == .keyCode(CursesKeyCode.up))
        #expect(CursesInput(status: -1, value: 0) == nil)
    }
}
