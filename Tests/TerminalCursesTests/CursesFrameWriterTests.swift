import Testing
import TerminalKit
@testable import TerminalCurses

@Suite struct CursesFrameWriterTests {
    private let size = ScreenSize(columns: 6, rows: 2)

    private func frame(_ lines: [String], style: Style = .plain) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: size)
        for (row, line) in lines.enumerated() {
            buffer.write(line, column: 0, row: row, style: style)
        }
        return buffer
    }

    @Test func writerRemembersTheScreenAndInvalidateForcesAFullRedraw() {
        var writer = CursesFrameWriter()
        #expect(writer.changes(to: frame(["ab"])).count == 2)
        #expect(writer.changes(to: frame(["ab"])).isEmpty)
        #expect(writer.changes(to: frame(["ac"])) == [CellSpan(row: 0, column: 1, width: 1)])
        writer.invalidate()
        #expect(writer.onScreen == nil)
        #expect(writer.changes(to: frame(["ac"])).count == 2)
    }

    @Test func fittingCutsAndPadsAFrameRenderedForAnotherSize() {
        var wide = ScreenBuffer(size: ScreenSize(columns: 8, rows: 3))
        wide.write("abcdefgh", column: 0, row: 0)
        wide.write("ijk", column: 0, row: 2)
        wide.cursor = (column: 7, row: 0)
        let fitted = CursesFrameWriter.fitted(wide, to: size)
        #expect(fitted.lines == ["abcdef", "      "])
        #expect(fitted.cursor == nil)

        var narrow = ScreenBuffer(size: ScreenSize(columns: 2, rows: 1))
        narrow.write("xy", column: 0, row: 0)
        narrow.cursor = (column: 1, row: 0)
        let padded = CursesFrameWriter.fitted(narrow, to: size)
        #expect(padded.lines == ["xy    ", "      "])
        #expect(padded.cursor?.column == 1)
    }
}
