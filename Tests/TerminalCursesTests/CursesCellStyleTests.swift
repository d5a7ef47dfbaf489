import TerminalKit
import Testing
@testable import TerminalCurses

@Suite struct CursesCellStyleTests {
    @Test func attributesFollowTheStyleInEveryColorMode() {
        let style = Style(foreground: .green, bold: true, dim: true, reverse: true, underline: true)
        for mode in [CursesColorMode.off, .withDefaultColors, .withoutDefaultColors] {
            #expect(CursesCellStyle(style, colorMode: mode).attributes == [.bold, .dim, .reverse, .underline])
        }
        #expect(CursesCellStyle(Style(reverse: true), colorMode: .off).attributes == [.reverse])
        #expect(CursesCellStyle(.plain, colorMode: .withDefaultColors).attributes == [])
    }

    @Test func colorsUseCursesNumbersAndMinusOneForTheDefault() {
        let upTick = CursesCellStyle(Style(foreground: .green), colorMode: .withDefaultColors)
        #expect(upTick.colors == CursesColorPair(foreground: 2, background: -1))
        let selected = CursesCellStyle(Style(foreground: .white, background: .blue), colorMode: .withDefaultColors)
        #expect(selected.colors == CursesColorPair(foreground: 7, background: 4))
        let background = CursesCellStyle(Style(background: .red), colorMode: .withDefaultColors)
        #expect(background.colors == CursesColorPair(foreground: -1, background: 1))
    }

    /// Themes at 256 colors and truecolor's own entries use palette numbers above 7, as curses numbers them.
    @Test func paletteColorsKeepTheirNumbers() {
        let light = CursesCellStyle(Style(foreground: TerminalColor(index: 28), background: TerminalColor(index: 255)), colorMode: .withDefaultColors)
        #expect(light.colors == CursesColorPair(foreground: 28, background: 255))
    }

    @Test func noColorsWithoutColorOrForThePlainStyle() {
        #expect(CursesCellStyle(Style(foreground: .red, background: .yellow), colorMode: .off).colors == nil)
        #expect(CursesCellStyle(Style(bold: true), colorMode: .withDefaultColors).colors == nil)
    }

    @Test func withoutDefaultColorsFallsBackToWhiteOnBlack() {
        let down = CursesCellStyle(Style(foreground: .red), colorMode: .withoutDefaultColors)
        #expect(down.colors == CursesColorPair(foreground: 1, background: 0))
        let highlight = CursesCellStyle(Style(background: .cyan), colorMode: .withoutDefaultColors)
        #expect(highlight.colors == CursesColorPair(foreground: 7, background: 6))
    }

    @Test func pairsAreAllocatedOnFirstUseAndReused() {
        var table = CursesColorPairTable(capacity: 64)
        let green = CursesColorPair(foreground: 2, background: -1)
        let red = CursesColorPair(foreground: 1, background: -1)
        #expect(table.number(for: green) == (1, true))
        #expect(table.number(for: red) == (2, true))
        #expect(table.number(for: green) == (1, false))
    }

    @Test func aFullTableFallsBackToPairZero() {
        var table = CursesColorPairTable(capacity: 3)
        _ = table.number(for: CursesColorPair(foreground: 1, background: -1))
        _ = table.number(for: CursesColorPair(foreground: 2, background: -1))
        #expect(table.number(for: CursesColorPair(foreground: 3, background: -1)) == (0, false))
        #expect(CursesColorPairTable(capacity: 0).capacity == 0)
        var none = CursesColorPairTable(capacity: 0)
        #expect(none.number(for: CursesColorPair(foreground: 1, background: 1)) == (0, false))
    }
}
