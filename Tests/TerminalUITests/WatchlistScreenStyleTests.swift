import TerminalKit
import Domain
import Interactors
import Testing
import TerminalUI

@Suite struct WatchlistScreenStyleTests {
    typealias F = WatchlistFixture
    /// Table rows start under the header and the headings.
    static func screenRow(_ index: Int) -> Int { index + 2 }

    let frame = F.render(F.state(), columns: 100, rows: 30)

    @Test func changeOfAnUpRowIsGreen() {
        let row = Self.screenRow(F.Index.upRow)
        let change = frame.cells(showing: "+2.34", row: row)
        let percent = frame.cells(showing: "+1.25%", row: row)
        #expect(change.count == 5 && percent.count == 6)
        #expect((change + percent).allSatisfy { $0.style.foreground == .green })
    }

    @Test func changeOfADownRowIsRed() {
        let row = Self.screenRow(F.Index.downRow)
        let change = frame.cells(showing: "-3.38", row: row)
        let percent = frame.cells(showing: "-0.83%", row: row)
        #expect(change.count == 5 && percent.count == 6)
        #expect((change + percent).allSatisfy { $0.style.foreground == .red })
    }

    @Test func themeColorsReplaceGreenAndRed() {
        var options = F.utc
        options.colorOverrides = [.up: .basic(TerminalColor(BrandColor.cyan)), .down: .basic(.magenta)]
        let themed = F.render(F.state(), columns: 100, rows: 30, options: options)
        #expect(themed.cells(showing: "+2.34", row: Self.screenRow(F.Index.upRow)).allSatisfy { $0.style.foreground == .cyan })
        #expect(themed.cells(showing: "-3.38", row: Self.screenRow(F.Index.downRow)).allSatisfy { $0.style.foreground == .magenta })
        #expect(themed.cells(showing: "131.07", row: Self.screenRow(F.Index.flashing)).allSatisfy { $0.style.background == .cyan })
    }

    @Test func unchangedPriceIsNotColored() {
        let cells = frame.cells(showing: "0.00%", row: Self.screenRow(9))
        #expect(cells.count == 5)
        #expect(cells.allSatisfy { $0.style.foreground == nil })
    }

    @Test func staleRowIsDimAndFreshRowsAreNot() {
        #expect(frame.cells(row: Self.screenRow(F.Index.stale)).allSatisfy { $0.style.dim })
        #expect(!frame.cells(row: Self.screenRow(F.Index.downRow)).contains { $0.style.dim })
    }

    @Test func selectedRowIsReverseAcrossTheWidth() {
        #expect(frame.cells(row: Self.screenRow(F.Index.selected)).allSatisfy { $0.style.reverse })
        #expect(!frame.cells(row: Self.screenRow(F.Index.upRow)).contains { $0.style.reverse })
    }

    @Test func justChangedPriceFlashesInTheDirectionOfTheChange() {
        let flashing = frame.cells(showing: "131.07", row: Self.screenRow(F.Index.flashing))
        #expect(flashing.count == 6)
        #expect(flashing.allSatisfy { $0.style.background == .green && $0.style.bold })
        // Changed 5 s ago, longer than highlightFor: back to normal.
        let settled = frame.cells(showing: "131.05", row: Self.screenRow(7))
        #expect(settled.allSatisfy { $0.style.background == nil && $0.style.foreground == nil })
    }

    @Test func rowErrorIsRedWhenPermanentAndYellowWhileReconnecting() {
        let unknown = frame.cells(showing: "unknown symbol", row: Self.screenRow(F.Index.unknown))
        #expect(unknown.count == 14 && unknown.allSatisfy { $0.style.foreground == .red })

        var rows = F.rows
        rows[2].entry = nil  // no price yet: the row says its broker is reconnecting
        let brokers = [BrokerStatus(branding: F.gamma, state: .reconnecting(attempt: 3, reason: "reset"))]
        let reconnecting = F.render(F.state(rows: rows, brokers: brokers), columns: 100, rows: 30)
        let cells = reconnecting.cells(showing: "reconnecting 3…", row: Self.screenRow(2))
        #expect(cells.count == 15 && cells.allSatisfy { $0.style.foreground == .yellow })
    }

    @Test func demoBadgeAndBrandGlyphsAreColored() {
        #expect(frame.cells(showing: "DEMO", row: 0).allSatisfy { $0.style.background == .yellow })
        #expect(frame.cells(showing: "α", row: Self.screenRow(0)).first?.style.foreground == .cyan)
        #expect(frame.cells(showing: "β", row: Self.screenRow(1)).first?.style.foreground == .magenta)
        #expect(frame.cells(showing: "γ", row: Self.screenRow(2)).first?.style.foreground == .yellow)
    }

    @Test func footerColorsConnectionStates() {
        let brokers = [
            BrokerStatus(branding: F.alpha, state: .live),
            BrokerStatus(branding: F.beta, state: .failed(reason: "unauthorized")),
            BrokerStatus(branding: F.gamma, state: .reconnecting(attempt: 2, reason: "reset")),
        ]
        let footer = F.render(F.state(brokers: brokers), columns: 100, rows: 30)
        #expect(footer.cells(showing: "● live", row: 29).allSatisfy { $0.style.foreground == .green })
        #expect(footer.cells(showing: "failed: unauthorized", row: 29).allSatisfy { $0.style.foreground == .red })
        #expect(footer.cells(showing: "reconnecting 2", row: 29).allSatisfy { $0.style.foreground == .yellow })
    }

    @Test func messagesAreColoredByKind() {
        let error = F.render(F.state(message: StatusMessage(.error, "state file is corrupt", at: F.now)), columns: 100, rows: 30)
        #expect(error.cells(showing: "state file is corrupt", row: 28).allSatisfy { $0.style.foreground == .red })
        let warning = F.render(F.state(message: StatusMessage(.warning, "slow", at: F.now)), columns: 100, rows: 30)
        #expect(warning.cells(showing: "slow", row: 28).allSatisfy { $0.style.foreground == .yellow })
    }

    @Test func withoutColorNoCellHasAColorButMeaningSurvives() {
        var rows = F.rows
        rows[2].entry = nil  // no price yet: the row says its broker is reconnecting
        let brokers = [
            BrokerStatus(branding: F.alpha, state: .live),
            BrokerStatus(branding: F.beta, state: .failed(reason: "unauthorized")),
            BrokerStatus(branding: F.gamma, state: .reconnecting(attempt: 3, reason: "reset")),
        ]
        let states = [
            F.state(rows: rows, brokers: brokers, message: StatusMessage(.error, "boom", at: F.now)),
            F.state(front: .help),
            F.state(front: .adding(TextPrompt(text: "ZZ$", error: "ZZ$ contains '$'"))),
            F.state(rows: []),
        ]
        for state in states {
            let mono = F.render(state, columns: 100, rows: 30, options: F.monochrome)
            #expect(mono.allCells.allSatisfy { $0.style.foreground == nil && $0.style.background == nil })
            // Same text as in color.
            #expect(mono.lines == F.render(state, columns: 100, rows: 30).lines)
        }
        let mono = F.render(F.state(), columns: 100, rows: 30, options: F.monochrome)
        #expect(mono.cells(row: Self.screenRow(F.Index.selected)).allSatisfy { $0.style.reverse })
        #expect(mono.cells(row: Self.screenRow(F.Index.stale)).allSatisfy { $0.style.dim })
        #expect(mono.cells(showing: "DEMO", row: 0).allSatisfy { $0.style.reverse })
        #expect(mono.cells(showing: "131.07", row: Self.screenRow(F.Index.flashing)).allSatisfy { $0.style.bold && $0.style.reverse })
    }

    @Test func helpOverlayDimsTheTableBehindIt() {
        let help = F.render(F.state(front: .help), columns: 100, rows: 30)
        // The table's first cells, left of the box (which the key column's width places).
        #expect(help.cells(row: Self.screenRow(0)).prefix(3).allSatisfy { $0.style.dim })
        #expect(!help.cells(showing: "CommonBroker", row: 0).contains { $0.style.dim })
        #expect(!help.cells(showing: "● live", row: 29).contains { $0.style.dim })
    }
}
