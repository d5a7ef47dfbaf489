import TestSupport
import Foundation
import Testing

/// The filter, the theme switch and remapped keys, in the real binary in tmux (TERM=tmux-256color, so
/// themes draw with 256 colors).
@Suite(.serialized) struct ThemesKeysEndToEndTests {
    static let brokerNames = ["Alpha Demo", "Beta Demo", "Gamma Flaky"]

    var binary: String { CommonBrokerBinary.path }

    func makeSession(config: String) async throws -> TmuxSession {
        #expect(FileManager.default.isExecutableFile(atPath: binary), "build the binary first (make test does): \(binary)")
        let session = try await TmuxSession(columns: 100, rows: 30, environment: [
            "XDG_STATE_HOME": "$PWD/state", "XDG_CONFIG_HOME": "$PWD/config",
        ])
        try await session.type("mkdir -p config/commonbroker && echo '\(config)' > config/commonbroker/config.json && clear")
        _ = try await session.waitForPrompt()
        return session
    }

    func rows(of symbol: String, in screen: String) -> [Substring] {
        screen.split(separator: "\n").filter { line in
            line.contains(symbol) && Self.brokerNames.contains { line.contains($0) }
        }
    }

    func startDemo(_ session: TmuxSession) async throws -> String? {
        // Without --demo (the config names no real broker, so the demo runs anyway): DemoEndToEndTests
        // signals `pkill -f "^commonbroker --demo"`, which would reach this app from a parallel suite.
        // The exit status is printed, so a failure says how the app ended.
        try await session.type("\(binary); echo EXIT=$?")
        return try await session.waitForScreen { screen in
            screen.contains("DEMO") && self.rows(of: "MSFT", in: screen).count == 3 && self.rows(of: "AAPL", in: screen).count == 3
        }
    }

    static let demoConfig = #"{"symbols": ["AAPL", "MSFT"], "brokers": {"demo": {"seed": 7, "tickIntervalMs": 200}}}"#

    @Test func filterThenClear() async throws {
        let session = try await makeSession(config: Self.demoConfig)
        #expect(try await startDemo(session) != nil, "demo rows did not appear:\n\(session.lastScreen)")

        try await session.send("/")
        #expect(try await session.waitFor("Filter: ") != nil, "the filter prompt did not open:\n\(session.lastScreen)")
        try await session.send("ms", literal: true)
        let filtered = try await session.waitForScreen { screen in
            self.rows(of: "AAPL", in: screen).isEmpty && self.rows(of: "MSFT", in: screen).count == 3 && screen.contains("filter: ms")
        }
        #expect(filtered != nil, "typing did not filter:\n\(session.lastScreen)")

        // Enter keeps the filter; the header still says so.
        try await session.send("Enter")
        let kept = try await session.waitForScreen { screen in
            screen.contains("Filter ms: 3 rows") && screen.contains("filter: ms") && self.rows(of: "AAPL", in: screen).isEmpty
        }
        #expect(kept != nil, "Enter did not keep the filter:\n\(session.lastScreen)")

        // Esc clears it: every row is back.
        try await session.send("Escape")
        let cleared = try await session.waitForScreen { screen in
            !screen.contains("filter: ms") && self.rows(of: "AAPL", in: screen).count == 3 && self.rows(of: "MSFT", in: screen).count == 3
        }
        #expect(cleared != nil, "Esc did not clear the filter:\n\(session.lastScreen)")

        try await session.send("q")
        #expect(try await session.waitForPrompt(), "the app did not quit:\n\(session.lastScreen)")
    }

    @Test func tSwitchesThemes() async throws {
        let session = try await makeSession(config: Self.demoConfig)
        #expect(try await startDemo(session) != nil, "demo rows did not appear:\n\(session.lastScreen)")
        let dark = try await session.captureWithStyles()
        // The dark theme is the eight ANSI colors: the title is cyan (36), nothing from the 256.
        #expect(dark.contains("36m") || dark.contains(";36"), "no cyan title in the dark theme:\n\(dark)")
        #expect(!dark.contains("38;5;"), "the dark theme uses only the eight ANSI colors:\n\(dark)")

        try await session.send("T")
        #expect(try await session.waitFor("Theme: light") != nil, "T did not switch to the light theme:\n\(session.lastScreen)")
        // The light theme's title is palette 25 (#005faf), drawn by tmux as 38;5;25.
        let light = try await waitForStyles(session) { $0.contains("38;5;25") }
        #expect(light != nil, "the light theme's colors did not reach the terminal:\n\(session.lastStyledScreen)")

        try await session.send("T")
        #expect(try await session.waitFor("Theme: high-contrast") != nil, "T did not switch to high-contrast:\n\(session.lastScreen)")
        try await session.send("T")
        #expect(try await session.waitFor("Theme: mono") != nil, "T did not switch to mono:\n\(session.lastScreen)")
        let mono = try await waitForStyles(session) { screen in
            !screen.contains("38;5;") && !screen.contains("[36m") && !screen.contains(";36m")
        }
        #expect(mono != nil, "the mono theme still draws colors:\n\(session.lastStyledScreen)")

        try await session.send("q")
        #expect(try await session.waitForPrompt(), "the app did not quit:\n\(session.lastScreen)")
    }

    /// Remapped keys drive the same steps: q no longer quits, n adds, f filters, x quits; help and the
    /// footer show the keys as mapped.
    @Test func remappedKeysDriveTheSameSteps() async throws {
        let config = #"{"symbols": ["AAPL", "MSFT"], "brokers": {"demo": {"seed": 7, "tickIntervalMs": 200}}, "keys": {"quit": "x", "add": "n", "filter": "f", "help": "h"}}"#
        let session = try await makeSession(config: config)
        #expect(try await startDemo(session) != nil, "demo rows did not appear:\n\(session.lastScreen)")
        let footer = try await session.capture().split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) ?? ""
        #expect(footer.contains("n add") && footer.contains("x quit") && footer.contains("h help"), "the footer does not show the mapped keys:\n\(footer)")

        // q is no key now: the n after it still reaches the running app.
        try await session.send("q")
        try await session.send("n")
        #expect(try await session.waitFor("Add symbols") != nil, "n did not open the add prompt (or q quit):\n\(session.lastScreen)")
        try await session.send("nvda", literal: true)
        try await session.send("Enter")
        #expect(try await session.waitForScreen { self.rows(of: "NVDA", in: $0).count == 3 } != nil, "NVDA was not added:\n\(session.lastScreen)")

        try await session.send("f")
        try await session.send("nv", literal: true)
        try await session.send("Enter")
        let filtered = try await session.waitForScreen { screen in
            screen.contains("filter: nv") && self.rows(of: "MSFT", in: screen).isEmpty && self.rows(of: "NVDA", in: screen).count == 3
        }
        #expect(filtered != nil, "f did not filter:\n\(session.lastScreen)")
        try await session.send("Escape")
        #expect(try await session.waitForScreen { !$0.contains("filter: nv") } != nil, "Esc did not clear the filter:\n\(session.lastScreen)")

        try await session.send("h")
        let help = try await session.waitForScreen { $0.contains("x  Ctrl-C") && $0.contains("h or Esc closes") }
        #expect(help != nil, "help does not show the mapped keys:\n\(session.lastScreen)")
        try await session.send("h")
        #expect(try await session.waitForScreen { !$0.contains("Ctrl-C") } != nil, "h did not close help:\n\(session.lastScreen)")

        try await session.send("x")
        #expect(try await session.waitForPrompt(), "x did not quit:\n\(session.lastScreen)")
    }

    @Test func aClashingKeyIsRefusedWithItsLine() async throws {
        let session = try await makeSession(config: #"{"keys": {"add": "d"}}"#)
        try await session.type("\(binary); echo EXIT=$?")
        let screen = try await session.waitForScreen { $0.split(separator: "\n").contains { $0.hasPrefix("EXIT=") } }
        // The message wraps at the pane's width (tmux drops the space at the end of a wrapped row).
        let unwrapped = screen?.replacingOccurrences(of: "\n", with: "") ?? ""
        #expect(unwrapped.contains(#"config.json:1:18: "keys.add" puts d on"#), "\(session.lastScreen)")
        #expect(unwrapped.contains(#"but "remove" has it too (by default)"#), "\(session.lastScreen)")
        #expect(screen?.contains("EXIT=0") == false, "\(session.lastScreen)")
    }

    private func waitForStyles(_ session: TmuxSession, _ condition: (String) -> Bool) async throws -> String? {
        let deadline = Date().addingTimeInterval(TestTime.scaled(15))
        repeat {
            let screen = try await session.captureWithStyles()
            session.lastStyledScreen = screen
            if condition(screen) { return screen }
            try await Task.sleep(for: .milliseconds(50))
        } while Date() < deadline
        return nil
    }
}
