import Foundation
import TestSupport
import Testing

/// Long messages in a real terminal (issue 12, item 5): where a corrupt watchlist went is shown whole,
/// and the message log keeps it.
@Suite(.serialized) struct MessagesEndToEndTests {
    var binary: String { CommonBrokerBinary.path }

    @Test func aCorruptWatchlistSaysWhereItWentInFullAndTheLogKeepsIt() async throws {
        let session = try await TmuxSession(columns: 120, rows: 30, environment: [
            "XDG_STATE_HOME": "$PWD/state", "XDG_CONFIG_HOME": "$PWD/config",
        ])
        try await session.type("mkdir -p state/commonbroker && echo '{not json' > state/commonbroker/watchlist.json && clear")
        _ = try await session.waitForPrompt()
        try await session.type("\(binary) --demo")
        let moved = session.workDirectory.appendingPathComponent("state/commonbroker/watchlist.json.corrupt-").path
        let shown = try await session.waitForScreen { screen in
            screen.replacingOccurrences(of: "\n", with: " ").contains(moved) && screen.contains("DEMO")
        }
        #expect(shown != nil, "the status line does not show where the file went:\n\(session.lastScreen)")

        try await session.send("m")
        let log = try await session.waitForScreen { $0.contains("Messages") && $0.contains("watchlist.json.corrupt-") }
        #expect(log != nil, "the message log does not keep it:\n\(session.lastScreen)")
        try await session.send("Escape")
        _ = try await session.waitForScreen { !$0.contains("─ Messages ") }
        try await session.send("q")
        #expect(try await session.waitForPrompt(), "the app did not quit:\n\(session.lastScreen)")
    }
}
