import Foundation
import TestSupport
import Testing

/// The cross-broker view in a real terminal (issue 17, item 1): `c` turns the demo's row per (symbol,
/// broker) into one row per symbol with the best bid and ask and how far the brokers differ; `c` again
/// brings the broker rows back.
@Suite(.serialized) struct CrossBrokerEndToEndTests {
    var binary: String { CommonBrokerBinary.path }

    /// The table's lines that start with `symbol` after the margin.
    static func rows(of symbol: String, in screen: String) -> [Substring] {
        screen.split(separator: "\n").filter { $0.dropFirst().hasPrefix(symbol + " ") }
    }

    @Test func cShowsOneRowPerSymbolAndCAgainOneRowPerBroker() async throws {
        let session = try await TmuxSession(columns: 120, rows: 35, environment: [
            "XDG_STATE_HOME": "$PWD/state", "XDG_CONFIG_HOME": "$PWD/config",
        ])
        try await session.type("\(binary) --demo --symbols AAPL,MSFT")
        let perBroker = try await session.waitForScreen { screen in
            Self.rows(of: "AAPL", in: screen).count == 3 && screen.contains("Gamma Flaky") && screen.contains("● live")
        }
        #expect(perBroker != nil, "no broker rows:\n\(session.lastScreen)")
        try await session.send("c")
        let perSymbol = try await session.waitForScreen { screen in
            Self.rows(of: "AAPL", in: screen).count == 1 && Self.rows(of: "MSFT", in: screen).count == 1
                && screen.contains("source") && screen.contains("differ bp")
        }
        #expect(perSymbol != nil, "no symbol rows after c:\n\(session.lastScreen)")
        if let perSymbol, let apple = Self.rows(of: "AAPL", in: perSymbol).first {
            // The best bid and ask each end in the glyph of whose they are (α, β or γ).
            let glyphs = apple.filter { "αβγ".contains($0) }
            #expect(glyphs.count >= 3, "source, best bid and best ask glyphs in: \(apple)")
        }
        try await session.send("c")
        let back = try await session.waitForScreen { screen in
            Self.rows(of: "AAPL", in: screen).count == 3 && Self.rows(of: "MSFT", in: screen).count == 3 && !screen.contains("differ bp")
        }
        #expect(back != nil, "c again did not bring the broker rows back:\n\(session.lastScreen)")
        try await session.send("q")
        #expect(try await session.waitForPrompt())
    }
}
