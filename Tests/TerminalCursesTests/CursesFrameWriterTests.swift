import Testing
import TerminalUI
@testable import TerminalCurses

@Suite struct CursesFrameWriterTests {
    private let size = ScreenSize(columns: 6, rows: 2)
    private let red = Style(foreground: .red)

    private func frame(_ lines: [String], style: Style = .plain) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: size)
        for (row, line) in lines.enumerated() {
            buffer.write(line, column: 0, row: row, style: style)
        }
        return buffer
    }

    @Test func firstFrameDrawsEveryCellRowByRow() {
        let runs = CursesFrameWriter.runs(from: nil, to: frame(["abc", "de"]))
        #expect(runs == [
            CursesCellRun(row: 0, column: 0, style: .plain, characters: Array("abc   ")),
            CursesCellRun(row: 1, column: 0, style: .plain, characters: Array("de    ")),
        ])
    }

    @Test func identicalFrameHasNoRuns() {
        let screen = frame(["abc", "de"])
        #expect(CursesFrameWriter.runs(from: screen, to: screen).isEmpty)
    }

    @Test func onlyChangedCellsAreRunsSplitAtUnchangedCells() {
        let runs = CursesFrameWriter.runs(from: frame(["abcdef", "de"]), to: frame(["aXcYZf", "de"]))
        #expect(runs == [
            CursesCellRun(row: 0, column: 1, style: .plain, characters: ["X"]),
            CursesCellRun(row: 0, column: 3, style: .plain, characters: ["Y", "Z"]),
        ])
    }

    @Test func aStyleChangeIsAChangeAndSplitsRuns() {
        var next = frame(["abcdef"])
        next.fill(row: 0, from: 2, to: 4, style: red)
        let runs = CursesFrameWriter.runs(from: frame(["abcdef"]), to: next)
        #expect(runs == [CursesCellRun(row: 0, column: 2, style: red, characters: ["c", "d"])])

        var mixed = frame(["zzzzzz"])
        mixed.fill(row: 0, from: 3, style: red)
        #expect(CursesFrameWriter.runs(from: frame(["abcdef"]), to: mixed) == [
            CursesCellRun(row: 0, column: 0, style: .plain, characters: ["z", "z", "z"]),
            CursesCellRun(row: 0, column: 3, style: red, characters: ["z", "z", "z"]),
        ])
    }

    @Test func aDifferentSizeRedrawsEverything() {
        let small = ScreenBuffer(size: ScreenSize(columns: 3, rows: 1))
        let runs = CursesFrameWriter.runs(from: small, to: frame([]))
        #expect(runs.map(\.characters.count) == [6, 6])
    }

    @Test func writerRemembersTheScreenAndInvalidateForcesAFullRedraw() {
        var writer = CursesFrameWriter()
        #expect(writer.changes(to: frame(["ab"])).count == 2)
        #expect(writer.changes(to: frame(["ab"])).isEmpty)
        #expect(writer.changes(to: frame(["ac"])) == [CursesCellRun(row: 0, column: 1, style: .plain, characters: ["c"])])
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
