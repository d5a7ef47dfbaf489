import Foundation
import TestSupport
import Testing

/// The detail view in a real terminal (issue 14, item 7): Enter opens it for the selected row, with a
/// row per broker and a chart; Esc goes back to the list with the same row selected.
@Suite(.serialized) struct DetailEndToEndTests {
    var binary: String { CommonBrokerBinary.path }

    @Test func enterOpensTheDetailAndEscReturnsToTheSameRow() async throws {
        let session = try await TmuxSession(columns: 120, rows: 35, environment: [
            "XDG_STATE_HOME": "$PWD/state", "XDG_CONFIG_HOME": "$PWD/config",
        ])
        try await session.type("\(binary) --demo --symbols AAPL,MSFT")
        _ = try await session.waitForScreen { $0.contains("MSFT") && $0.contains("Gamma Flaky") && $0.contains("● live") }
        // The fourth row is MSFT at the first broker.
        try await session.send("j")
        try await session.send("j")
        try await session.send("j")
        try await session.send("Enter")
        let detail = try await session.waitForScreen { screen in
            screen.contains("MSFT") && screen.contains("best bid") && screen.contains("seen lo–hi") && screen.contains("now")
                && screen.contains("Esc back to the list")
        }
        #expect(detail != nil, "no detail view:\n\(session.lastScreen)")
        #expect(detail?.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) } == true, "no chart:\n\(session.lastScreen)")
        try await session.send("Escape")
        let list = try await session.waitForScreen { screen in !screen.contains("best bid") && screen.contains("symbol▲") }
        #expect(list != nil, "Esc did not go back:\n\(session.lastScreen)")
        try await session.send("Enter")
        let again = try await session.waitForScreen { $0.contains("best bid") }
        #expect(again?.split(separator: "\n").dropFirst().first?.contains("MSFT") == true, "the same row is not selected:\n\(session.lastScreen)")
        try await session.send("q")
        try await session.send("q")
        #expect(try await session.waitForPrompt())
    }
}
