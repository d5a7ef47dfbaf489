import Foundation
import TestSupport
import Testing

/// Several watchlists in a real terminal (issue 14, item 6): a file from the one-list version migrates,
/// a second list is made and filled, Tab switches, and both lists are there after a restart.
@Suite(.serialized) struct ListsEndToEndTests {
    var binary: String { CommonBrokerBinary.path }

    func rows(of symbol: String, in screen: String) -> Int {
        // Stale rows are marked `~`, or `!` while another broker's quote is live.
        screen.split(separator: "\n").filter { $0.hasPrefix(" \(symbol) ") || $0.hasPrefix("~\(symbol) ") || $0.hasPrefix("!\(symbol) ") }.count
    }

    @Test func aSecondListIsMadeFilledSwitchedAndKeptAcrossARestart() async throws {
        let session = try await TmuxSession(columns: 120, rows: 30, environment: [
            "XDG_STATE_HOME": "$PWD/state", "XDG_CONFIG_HOME": "$PWD/config",
        ])
        // What the one-list version wrote.
        let old = #"{\n  \"symbols\" : [\n    \"AAPL\",\n    \"MSFT\"\n  ],\n  \"version\" : 1\n}"#
        try await session.type("mkdir -p state/commonbroker && printf '\(old)\\n' > state/commonbroker/watchlist.json && clear")
        _ = try await session.waitForPrompt()
        try await session.type("\(binary) --demo")
        let migrated = try await session.waitForScreen { self.rows(of: "AAPL", in: $0) == 3 && self.rows(of: "MSFT", in: $0) == 3 }
        #expect(migrated != nil, "the old list did not load:\n\(session.lastScreen)")
        let stateFiles = try FileManager.default.contentsOfDirectory(atPath: session.workDirectory.appendingPathComponent("state/commonbroker").path)
        #expect(!stateFiles.contains { $0.contains("corrupt") }, "the old file was taken for corrupt: \(stateFiles)")

        try await session.send("W")
        try await session.send("n")
        try await session.send("Indexes", literal: true)
        try await session.send("Enter")
        _ = try await session.waitForScreen { $0.contains("Created list Indexes") }
        try await session.send("a")
        try await session.send("^gspc", literal: true)
        try await session.send("Enter")
        let indexes = try await session.waitForScreen { self.rows(of: "^GSPC", in: $0) == 3 && self.rows(of: "AAPL", in: $0) == 0 }
        #expect(indexes != nil, "the new list does not show its symbol alone:\n\(session.lastScreen)")
        #expect(indexes?.contains(" Watchlist  Indexes ") == true, "no tabs in the header:\n\(session.lastScreen)")

        try await session.send("Tab")
        let back = try await session.waitForScreen { self.rows(of: "AAPL", in: $0) == 3 && self.rows(of: "^GSPC", in: $0) == 0 }
        #expect(back != nil, "Tab did not switch back:\n\(session.lastScreen)")
        try await session.send("q")
        #expect(try await session.waitForPrompt())

        try await session.type("\(binary) --demo")
        _ = try await session.waitForScreen { self.rows(of: "AAPL", in: $0) == 3 }
        try await session.send("2")
        let restarted = try await session.waitForScreen { self.rows(of: "^GSPC", in: $0) == 3 && $0.contains(" Watchlist  Indexes ") }
        #expect(restarted != nil, "the second list did not survive a restart:\n\(session.lastScreen)")
        try await session.send("q")
        #expect(try await session.waitForPrompt())
        let file = try String(contentsOf: session.workDirectory.appendingPathComponent("state/commonbroker/watchlist.json"), encoding: .utf8)
        #expect(file.contains("\"version\" : 2"))
        #expect(file.contains("\"Indexes\""))
    }
}
