import Domain
import Foundation
import Interactors
import Stores
import TerminalKit
import Testing
@testable import TerminalUI

/// The header, the column headings and the footer are put back from the frame before while nothing they
/// show changed (`KeptRow`): every change they show must still reach the screen, through a warm cache.
@Suite struct KeptRowTests {
    typealias F = WatchlistFixture
    typealias Loop = WatchlistTableCacheTests.Loop

    @Test func everyChangeTheHeaderTheHeadingsAndTheFooterShowReachesAWarmFrame() {
        var loop = Loop()
        let base = WatchlistTableCacheTests.state(CrossBrokerScreenTests.rows)
        func with(_ change: (inout WatchlistViewState) -> Void) -> WatchlistViewState {
            var state = base
            change(&state)
            return state
        }
        let limited = with { state in
            state.brokers[0].state = .retrying(at: F.now.addingTimeInterval(9.5), after: .rateLimited(retryAfter: 9.5))
        }
        let steps: [(String, WatchlistViewState, Date, Int)] = [
            ("first frame", base, F.now, 200),
            ("the clock ticks a second", base, F.now.addingTimeInterval(1), 200),
            ("a broker reconnects", with { $0.brokers[1].state = .reconnecting(attempt: 2, reason: "reset") }, F.now.addingTimeInterval(1), 200),
            ("a broker is rate limited", limited, F.now.addingTimeInterval(1), 200),
            ("its countdown moves on", limited, F.now.addingTimeInterval(2), 200),
            ("a broker skipped a frame", with { $0.brokers[2].skippedFrames = 1 }, F.now.addingTimeInterval(2), 200),
            ("via the bus", with { $0.brokers[0].route = .follower(leader: "host-b:1") }, F.now.addingTimeInterval(2), 200),
            ("a filter", with { $0.filter = "aa" }, F.now.addingTimeInterval(2), 200),
            ("sorted by change", with { $0.sort = .changePercent }, F.now.addingTimeInterval(2), 200),
            ("sorted by change, reversed", with { $0.sort = .changePercent; $0.sortReversed = true }, F.now.addingTimeInterval(2), 200),
            ("one row per symbol", with { $0.rowMode = .perSymbol; $0.rows = WatchlistTableCacheTests.state(CrossBrokerScreenTests.rows, mode: .perSymbol).rows }, F.now.addingTimeInterval(2), 200),
            ("a security warning", with { $0.securityWarning = "config is world-readable" }, F.now.addingTimeInterval(2), 200),
            ("not saved", with { $0.isSaved = false }, F.now.addingTimeInterval(2), 200),
            ("live trading", with { $0.tradesLive = true }, F.now.addingTimeInterval(2), 200),
            ("two lists", with { $0.listNames = ["Tech", "Banks"] }, F.now.addingTimeInterval(2), 200),
            ("the other list shown", with { $0.listNames = ["Tech", "Banks"]; $0.currentList = 1 }, F.now.addingTimeInterval(2), 200),
            ("a key remapped", with { $0.keys = $0.keys.remapping([(name: "add", keys: [.character("+")])]) }, F.now.addingTimeInterval(2), 200),
            ("help in front", with { $0.front = .help }, F.now.addingTimeInterval(2), 200),
            ("a symbol fewer", WatchlistTableCacheTests.state(Array(CrossBrokerScreenTests.rows.dropLast(3))), F.now.addingTimeInterval(2), 200),
            ("narrower", base, F.now.addingTimeInterval(2), 90),
            ("back to the first", base, F.now, 200),
        ]
        var previous: ScreenBuffer?
        for (change, state, now, columns) in steps {
            let frame = loop.render(state, at: now, columns: columns)
            #expect(frame == WatchlistTableCacheTests.fresh(state, at: now, columns: columns), "\(change)")
            if let previous {
                // Text or style: the shown list's tab differs only in its color.
                let last = frame.size.rows - 1
                let shown = frame.size != previous.size || [0, 1, last].contains { frame.rowCodes($0) != previous.rowCodes($0) }
                #expect(shown, "\(change) shows in the header, the headings or the footer: \(frame.lines.first ?? "") / \(frame.lines.last ?? "")")
            }
            previous = frame
        }
    }

    /// What the rows cost when nothing changed: the kept row is put back, not drawn; a changed key draws.
    @Test func aKeptRowIsDrawnOnlyWhenItsKeyChanges() {
        var kept = KeptRow<Int, String>()
        var draws = 0
        func frame(_ key: Int, _ text: String) -> (ScreenBuffer, String) {
            var buffer = ScreenBuffer(size: ScreenSize(columns: 10, rows: 2))
            let value = kept.draw(into: &buffer, row: 1, key: key) { buffer in
                draws += 1
                for (column, character) in text.enumerated() { buffer[column, 1] = Cell(character, style: .plain) }
                return text
            }
            return (buffer, value)
        }
        #expect(frame(1, "one").0.lines[1] == "one       ")
        #expect(frame(1, "ignored").0.lines[1] == "one       ", "the same key puts back the row drawn for it")
        #expect(frame(1, "ignored").1 == "one", "and what drawing it returned")
        #expect(draws == 1)
        #expect(frame(2, "two").0.lines[1] == "two       ")
        #expect(draws == 2)
        // A row of several-scalar characters is never kept (its codes belong to its own frame).
        _ = frame(3, "e\u{301}")
        _ = frame(3, "e\u{301}")
        #expect(draws == 4)
    }
}
