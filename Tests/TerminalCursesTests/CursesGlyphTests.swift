import TerminalKit
import Testing
@testable import TerminalCurses

@Suite struct CursesGlyphTests {
    /// A stand-in for wcwidth: combining marks 0, CJK and emoji 2, controls -1, the rest 1.
    private func width(_ scalar: UInt32) -> Int32 {
        switch scalar {
        case 0..<0x20, 0x7F..<0xA0: -1
        case 0x0300...0x036F: 0
        case 0x4E00...0x9FFF, 0x1F300...0x1FAFF: 2
        default: 1
        }
    }

    @Test func singleWidthCharactersPassThrough() {
        #expect(CursesGlyph.scalars(for: "a", width: width) == [0x61])
        #expect(CursesGlyph.scalars(for: "▲", width: width) == [0x25B2])
    }

    @Test func combiningMarksStayWithTheirBase() {
        #expect(CursesGlyph.scalars(for: "e\u{301}", width: width) == [0x65, 0x301])
    }

    @Test func wideUndrawableOrOverlongGraphemesBecomeAQuestionMark() {
        #expect(CursesGlyph.scalars(for: "😀", width: width) == CursesGlyph.replacement)
        #expect(CursesGlyph.scalars(for: "中", width: width) == CursesGlyph.replacement)
        #expect(CursesGlyph.scalars(for: "\u{7}", width: width) == CursesGlyph.replacement)
        #expect(CursesGlyph.scalars(for: "e\u{301}\u{302}\u{303}\u{304}\u{305}", width: width) == CursesGlyph.replacement)
    }

    @Test func aCellOfOneScalarGetsWhatItsCharacterWould() {
        for value: UInt32 in [0x61, 0x20, 0x25B2, 0x7, 0x7F, 0x9B, 0x301, 0x4E2D, 0x1F600, 0xE9] {
            let character = Character(Unicode.Scalar(value)!)
            #expect([CursesGlyph.scalar(value, width: width)] == CursesGlyph.scalars(for: character, width: width), "U+\(String(value, radix: 16))")
        }
    }

    @Test func eachCellOfAFrameIsOneCellForCurses() {
        var frame = ScreenBuffer(size: ScreenSize(columns: 7, rows: 1))
        for (column, character) in ["a", "\u{7}", "\u{301}", "中", "🇩🇪", "e\u{301}", "▲"].enumerated() {
            frame[column, 0] = Cell(Character(character))
        }
        let cells = frame.withCodes(row: 0, columns: 0..<7) { codes in codes.map { CursesGlyph.cell(code: $0, in: frame, width: width) } }
        let question = CursesGlyph.replacement[0]
        #expect(cells == [
            .scalar(0x61), .scalar(question), .scalar(question), .scalar(question),
            .scalars(CursesGlyph.scalars(for: "🇩🇪", width: width)), .scalars([0x65, 0x301]), .scalar(0x25B2),
        ])
    }
}
