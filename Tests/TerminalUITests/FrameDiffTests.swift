import Testing
import TerminalUI
import TerminalKit

@Suite struct FrameDiffTests {
    typealias F = WatchlistFixture

    @Test func identicalFramesNeedNoRuns() {
        let frame = F.render(F.state(), columns: 100, rows: 30)
        #expect(FrameDiff.runs(from: frame, to: frame).isEmpty)
    }

    @Test func oneChangedCellIsOneRunOfLengthOne() {
        let old = ScreenBuffer(size: ScreenSize(columns: 10, rows: 3))
        var new = old
        new[4, 1] = Cell("x", style: Style(bold: true))
        #expect(FrameDiff.runs(from: old, to: new) == [CellRun(row: 1, column: 4, text: "x", style: Style(bold: true))])
    }

    @Test func aChangedPriceIsOneShortRun() {
        var state = F.state()
        state.rows.modifyEntry(at: 3) { $0.quote?.last = exactDecimal("402.17") }
        let old = F.render(F.state(), columns: 100, rows: 30)
        let new = F.render(state, columns: 100, rows: 30)
        let runs = FrameDiff.runs(from: old, to: new)
        // 402.12 → 402.17 changes the last digit; change (-3.33) and change % (-0.82%) follow in red.
        let onPriceRow = runs.filter { $0.row == 5 }
        #expect(runs.count == onPriceRow.count)
        #expect(onPriceRow.first == CellRun(row: 5, column: 32, text: "7", style: .plain))
        #expect(onPriceRow.allSatisfy { $0.width <= 8 })
    }

    @Test func changesOfOneStyleSeparatedByAFewUnchangedCellsShareARun() {
        var old = ScreenBuffer(size: ScreenSize(columns: 20, rows: 1))
        old.write("12.34  56.78", column: 0, row: 0)
        var new = old
        new.write("12.35  56.79", column: 0, row: 0)
        // "5  56.7" in between is unchanged, longer than the bridgeable gap: two runs.
        #expect(FrameDiff.runs(from: old, to: new).map(\.text) == ["5", "9"])

        var near = old
        near.write("12.44", column: 0, row: 0)
        #expect(FrameDiff.runs(from: old, to: near) == [CellRun(row: 0, column: 3, text: "4", style: .plain)])
        near.write("13.44", column: 0, row: 0)
        #expect(FrameDiff.runs(from: old, to: near) == [CellRun(row: 0, column: 1, text: "3.4", style: .plain)])
    }

    @Test func styleChangeAloneIsAChange() {
        var old = ScreenBuffer(size: ScreenSize(columns: 5, rows: 1))
        old.write("abcde", column: 0, row: 0)
        var new = old
        new.fill(row: 0, from: 1, to: 3, style: Style(reverse: true))
        #expect(FrameDiff.runs(from: old, to: new) == [CellRun(row: 0, column: 1, text: "bc", style: Style(reverse: true))])
    }

    @Test func resizeOrNoPreviousFrameRedrawsEveryCell() {
        let small = F.render(F.state(), columns: 60, rows: 20)
        let large = F.render(F.state(), columns: 100, rows: 30)
        for runs in [FrameDiff.runs(from: small, to: large), FrameDiff.runs(from: nil, to: large)] {
            #expect(runs.reduce(0) { $0 + $1.width } == 100 * 30)
            #expect(Set(runs.map(\.row)) == Set(0..<30))
            for run in runs {
                let expected = (run.column..<(run.column + run.width)).map { large[$0, run.row] }
                #expect(expected.allSatisfy { $0.style == run.style })
                #expect(String(expected.map(\.character)) == run.text)
            }
        }
    }

    @Test func applyingTheRunsReproducesTheNewFrame() {
        let old = F.render(F.state(), columns: 100, rows: 30)
        let new = F.render(F.state(front: .help), columns: 100, rows: 30)
        var screen = old
        for run in FrameDiff.runs(from: old, to: new) {
            screen.write(run.text, column: run.column, row: run.row, style: run.style)
        }
        #expect(screen.lines == new.lines)
        #expect(screen.allCells == new.allCells)
    }

    @Test func spansAreWhereTheFrameChangedAndReadBackAsTheRunsText() {
        var old = ScreenBuffer(size: ScreenSize(columns: 12, rows: 2))
        old.write("ab é 12.5", column: 0, row: 0)
        old[2, 1] = Cell("🇫🇷")
        var new = old
        new[0, 0] = Cell("🇩🇪")
        new[3, 0] = Cell("e\u{301}", style: Style(bold: true))
        new.write("▲ 12.6", column: 5, row: 0)
        // Two changes around an unchanged flag: one span across it.
        new[1, 1] = Cell("k")
        new[3, 1] = Cell("m")
        // A control, and a combining mark in a cell of its own after an "e": three cells.
        new[9, 1] = Cell("\u{7}")
        new[10, 1] = Cell("e")
        new[11, 1] = Cell("\u{301}")
        let spans = FrameDiff.spans(from: old, to: new)
        #expect(spans == [
            CellSpan(row: 0, column: 0, width: 1), CellSpan(row: 0, column: 3, width: 1), CellSpan(row: 0, column: 5, width: 6),
            CellSpan(row: 1, column: 1, width: 3), CellSpan(row: 1, column: 9, width: 3),
        ])
        #expect(spans.map { FrameDiff.run(of: $0, in: new).text } == ["🇩🇪", "e\u{301}", "▲ 12.6", "k🇫🇷m", "\u{7}e\u{301}"])
        #expect(FrameDiff.run(of: spans[1], in: new).style == Style(bold: true))
        #expect(FrameDiff.spans(from: nil, to: new) == [
            CellSpan(row: 0, column: 0, width: 3), CellSpan(row: 0, column: 3, width: 1), CellSpan(row: 0, column: 4, width: 8),
            CellSpan(row: 1, column: 0, width: 12),
        ])
    }

    @Test func aSpanIsNeverNegativeAndOffTheFrameReadsAsNothing() {
        let frame = ScreenBuffer(size: ScreenSize(columns: 4, rows: 1))
        #expect(CellSpan(row: 0, column: 2, width: -3).width == 0)
        #expect(FrameDiff.run(of: CellSpan(row: 0, column: 2, width: -3), in: frame).text == "")
        #expect(FrameDiff.run(of: CellSpan(row: 3, column: 0, width: 2), in: frame) == CellRun(row: 3, column: 0, text: "", style: .plain))
        #expect(FrameDiff.run(of: CellSpan(row: 0, column: 2, width: 9), in: frame).text == "  ")
    }
}
