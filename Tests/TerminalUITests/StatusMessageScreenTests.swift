import Domain
import Foundation
import Interactors
import Testing
import TerminalUI
import TerminalKit

/// The status line, the message log and the header's "not saved" badge (issue 12, items 5, 7, 9, 10).
@Suite struct StatusMessageScreenTests {
    typealias F = WatchlistFixture

    static let corrupt = "The watchlist file was corrupt (line 1: unexpected end of input); moved it to "
        + "/tmp/nonexistent-home/.local/state/commonbroker/watchlist.json.corrupt-20261124-201500 and started from the config's symbols"

    /// A message longer than a row wraps onto the rows above the footer, so where the file went is shown
    /// whole, and the table gives up the rows.
    @Test func aLongMessageWrapsInsteadOfBeingCut() {
        let state = F.state(message: StatusMessage(.warning, Self.corrupt, at: F.now))
        let frame = F.render(state, columns: 120, rows: 20)
        Snapshot.expect(frame, matches: "long-message-120x20")
        #expect(frame.lines.joined().contains("watchlist.json.corrupt-20261124-201500"))
        #expect(WatchlistScreen.visibleTableRows(for: ScreenSize(columns: 120, rows: 20), state: state, now: F.now) == 14)
    }

    @Test func aMessageTooLongEvenForThreeRowsEndsInAnEllipsis() {
        let text = String(repeating: "word ", count: 60)
        let frame = F.render(F.state(message: StatusMessage(.error, text, at: F.now)), columns: 60, rows: 20)
        #expect(frame.lines[16].hasPrefix(" word"))
        #expect(frame.lines[18].trimmingCharacters(in: .whitespaces).hasSuffix("…"))
    }

    /// Info messages fade; warnings and errors stay until dismissed.
    @Test func infoMessagesFadeAfterAFewSeconds() {
        let said = F.now.addingTimeInterval(-(StatusMessage.infoLifetime + 0.1))
        let faded = F.render(F.state(message: StatusMessage(.info, "Sorted by last", at: said)), columns: 100, rows: 30)
        #expect(!faded.lines.joined().contains("Sorted by last"))
        let fresh = F.render(F.state(message: StatusMessage(.info, "Sorted by last", at: F.now.addingTimeInterval(-1))), columns: 100, rows: 30)
        #expect(fresh.lines[28].contains("Sorted by last"))
        let oldError = F.render(F.state(message: StatusMessage(.error, "Tradier: unauthorized", at: F.now.addingTimeInterval(-3600))), columns: 100, rows: 30)
        #expect(oldError.lines[28].contains("Tradier: unauthorized"))
    }

    @Test func messageLogListsTheLastMessagesNewestFirstWithTheirTime() {
        var state = F.state(front: .messageLog, message: nil)
        state.messageLog = [
            StatusMessage(.info, "Added NVDA", at: F.ago(125)),
            StatusMessage(.error, "Alpaca: unauthorized, check APCA_API_KEY_ID and APCA_API_SECRET_KEY", at: F.ago(61)),
            StatusMessage(.warning, Self.corrupt, at: F.ago(2)),
        ]
        Snapshot.expect(F.render(state, columns: 100, rows: 30), matches: "message-log-100x30")
        Snapshot.expect(F.render(state, columns: 60, rows: 20), matches: "message-log-60x20")
        var empty = F.state(front: .messageLog, message: nil)
        empty.messageLog = []
        #expect(F.render(empty, columns: 60, rows: 20).lines.joined().contains("No messages yet"))
    }

    /// At 60 columns the add prompt's error does not fit beside the typed text: it goes on the next row,
    /// whole, instead of losing its reason.
    @Test func addPromptErrorKeepsItsReasonAt60Columns() {
        let state = F.state(front: .adding(TextPrompt(text: "$$$", error: "not added: $$$ contains '$'; use letters, digits, . - / ^")))
        let frame = F.render(state, columns: 60, rows: 20)
        Snapshot.expect(frame, matches: "add-prompt-error-60x20")
        #expect(frame.lines.joined().contains("use letters, digits, . - / ^"))
        #expect(frame.cursor?.row == 17)
    }

    @Test func aSymbolsRunSaysItsListIsNotSaved() {
        var state = F.state()
        state.isSaved = false
        let frame = F.render(state, columns: 100, rows: 30)
        #expect(frame.lines[0].contains(" NOT SAVED "))
        #expect(F.render(state, columns: 60, rows: 20).lines[0].contains(" NOT SAVED "))
    }

    @Test func theSortedColumnIsMarkedInTheHeadings() {
        var state = F.state()
        #expect(F.render(state, columns: 100, rows: 30).lines[1].hasPrefix(" symbol▲"))
        state.sort = .changePercent
        #expect(F.render(state, columns: 100, rows: 30).lines[1].contains("▼change %"))
        state.sort = .last
        #expect(F.render(state, columns: 100, rows: 30).lines[1].contains("▼last"))
    }

    /// A wide terminal gains the spread and the previous close; they are the first to go when it narrows.
    @Test func aWideTerminalShowsSpreadAndPreviousClose() {
        let frame = F.render(F.state(), columns: 200, rows: 20)
        Snapshot.expect(frame, matches: "watchlist-200x20")
        #expect(frame.lines[1].contains("spread"))
        #expect(frame.lines[1].contains("prev close"))
        #expect(!F.render(F.state(), columns: 90, rows: 20).lines[1].contains("spread"))
    }

    /// The footer abbreviates broker names to their first word before it drops them, and keeps `? help`.
    @Test func footerKeepsBrokerNamesAt60Columns() {
        let footer = F.render(F.state(), columns: 60, rows: 20).lines[19]
        #expect(footer.contains("Alpha") && footer.contains("Beta") && footer.contains("Gamma"))
        #expect(footer.contains("? help"))
        let wide = F.render(F.state(), columns: 200, rows: 20).lines[19]
        #expect(wide.contains("A accounts") && wide.contains("m messages"))
    }
}
