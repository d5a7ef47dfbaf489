import Domain
import Foundation
import Testing
import TerminalKit
@testable import TerminalUI

/// Cells are stored packed (`CellCode`); what goes in must come out, and frames must compare and diff
/// as their cells do.
@Suite struct ScreenBufferPackingTests {
    static let colors: [TerminalColor?] = [nil] + TerminalColor.allCases

    @Test func everyStyleSurvivesPacking() {
        var buffer = ScreenBuffer(size: ScreenSize(columns: 9, rows: 9))
        var styles: [Style] = []
        for foreground in Self.colors {
            for background in Self.colors {
                let flags = styles.count
                styles.append(Style(
                    foreground: foreground, background: background,
                    bold: flags & 1 != 0, dim: flags & 2 != 0, reverse: flags & 4 != 0, underline: flags & 8 != 0))
            }
        }
        for (index, style) in styles.enumerated() {
            buffer[index % 9, index / 9] = Cell("x", style: style)
        }
        for (index, style) in styles.enumerated() {
            #expect(buffer[index % 9, index / 9] == Cell("x", style: style))
        }
    }

    @Test func charactersOfSeveralScalarsSurviveAndCompareByScalars() {
        var buffer = ScreenBuffer(size: ScreenSize(columns: 4, rows: 1))
        let flag: Character = "🇫🇷"
        let decomposed: Character = "e\u{301}"
        buffer[0, 0] = Cell(flag)
        buffer[1, 0] = Cell(decomposed, style: Style(bold: true))
        buffer[2, 0] = Cell("é")
        #expect(buffer[0, 0].character.unicodeScalars.elementsEqual(flag.unicodeScalars))
        #expect(buffer[1, 0].character.unicodeScalars.elementsEqual(decomposed.unicodeScalars))
        #expect(buffer[1, 0].style == Style(bold: true))
        #expect(buffer.lines == ["🇫🇷e\u{301}é "])

        var same = ScreenBuffer(size: ScreenSize(columns: 4, rows: 1))
        same[2, 0] = Cell("é")
        same[1, 0] = Cell(decomposed, style: Style(bold: true))
        same[0, 0] = Cell(flag)
        #expect(same == buffer)
        #expect(same.hashValue == buffer.hashValue)
        #expect(FrameDiff.runs(from: same, to: buffer).isEmpty)

        var other = same
        other[0, 0] = Cell("🇩🇪")
        #expect(other != buffer)
        #expect(FrameDiff.runs(from: buffer, to: other) == [CellRun(row: 0, column: 0, text: "🇩🇪", style: .plain)])
    }

    @Test func writingClipsLikeCellByCell() {
        for column in -3...7 {
            for maxWidth in [nil, 0, 2, 10] {
                var fast = ScreenBuffer(size: ScreenSize(columns: 6, rows: 1))
                var slow = fast
                let end = fast.write("abcd", column: column, row: 0, style: Style(bold: true), maxWidth: maxWidth)
                let slowEnd = slow.write(cells: Array("abcd"), column: column, row: 0, style: Style(bold: true), maxWidth: maxWidth)
                #expect(end == slowEnd, "column \(column), maxWidth \(String(describing: maxWidth))")
                #expect(fast == slow, "column \(column), maxWidth \(String(describing: maxWidth))")
            }
        }
    }

    @Test func flagsAreSetAndToggledWithoutTouchingCharacters() {
        var buffer = ScreenBuffer(size: ScreenSize(columns: 5, rows: 2))
        buffer.write("hello", column: 0, row: 1, style: Style(foreground: .red, reverse: true))
        buffer.add(flags: CellCode.dim, row: 1, from: 1, to: 3)
        buffer.toggle(flags: CellCode.reverse, row: 1, from: 2)
        #expect(buffer.lines[1] == "hello")
        #expect(buffer.cells(row: 1).map(\.style) == [
            Style(foreground: .red, reverse: true),
            Style(foreground: .red, dim: true, reverse: true),
            Style(foreground: .red, dim: true),
            Style(foreground: .red),
            Style(foreground: .red),
        ])
        #expect(buffer.cells(row: 0).allSatisfy { $0 == .blank })
    }

    @Test func theClockAgreesWithTheGregorianCalendar() {
        var generator = SplitMix64(seed: 2026_06)
        let zones = ["UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham", "Europe/Dublin"]
            .compactMap(TimeZone.init(identifier:))
        #expect(zones.count == 6)
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: -2e9...4e9, using: &generator))
            for zone in zones {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
                let expected = String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
                #expect(HeaderBar.clock(date, timeZone: zone) == expected, "\(date) in \(zone.identifier)")
            }
        }
    }

    @Test func sanitizedCellsAreTheCellsOfTheSanitizedText() {
        for text in ["AAPL", "BRK.B", "a\u{1B}[31mred", "日本", "e\u{301}x", "tab\there", "", "~ok~"] {
            var scalars: [UInt32] = []
            let count = TerminalText.appendSanitizedCells(of: text, to: &scalars)
            let expected = TerminalText.cells(TerminalText.sanitize(text)).map { $0.unicodeScalars.first!.value }
            #expect(scalars == expected, "\(text)")
            #expect(count == expected.count)
        }
    }

    @Test func codesAreReadInPlaceWithinTheScreen() {
        var buffer = ScreenBuffer(size: ScreenSize(columns: 4, rows: 2))
        buffer.write("abcd", column: 0, row: 1, style: Style(bold: true))
        func characters(row: Int, columns: Range<Int>) -> String {
            buffer.withCodes(row: row, columns: columns) { codes in
                String(String.UnicodeScalarView(codes.map { Unicode.Scalar(CellCode.character(of: $0))! }))
            }
        }
        #expect(characters(row: 1, columns: 1..<3) == "bc")
        #expect(characters(row: 1, columns: -2..<9) == "abcd")
        #expect(characters(row: 2, columns: 0..<4) == "")
        #expect(characters(row: 1, columns: 4..<6) == "")
        #expect(characters(row: -1, columns: 0..<4) == "")
        #expect(characters(row: 1, columns: 2..<4) == "cd")
        #expect(characters(row: 0, columns: 0..<4) == "    ")
        #expect(buffer.withCodes(row: 1, columns: 0..<1) { CellCode.style(of: $0[0]) } == Style(bold: true))
    }

    @Test func aCodeNamesItsScalarOnlyWhenItHoldsOne() {
        #expect(CellCode.scalar(of: 0x61 | CellCode.bold) == "a")
        #expect(CellCode.scalar(of: 0x25B2) == "▲")
        #expect(CellCode.scalar(of: 0xD800) == nil)
        #expect(CellCode.scalar(of: UInt64(CellCode.graphemeBase)) == nil)
        var buffer = ScreenBuffer(size: ScreenSize(columns: 1, rows: 1))
        buffer[0, 0] = Cell("🇩🇪")
        #expect(buffer.withCodes(row: 0, columns: 0..<1) { CellCode.scalar(of: $0[0]) } == nil)
    }
}
