import TestSupport
import Foundation
import Testing

/// The real `commonbroker` binary in a real terminal (tmux), driven by keys like a person would.
/// `make test` builds the binary first and passes its path in COMMONBROKER_BIN.
@Suite(.serialized) struct DemoEndToEndTests {
    static let brokerNames = ["Alpha Demo", "Beta Demo", "Gamma Flaky"]

    var binary: String { CommonBrokerBinary.path }

    /// A shell in tmux with private config and state folders and a small, fast demo config.
    func makeSession(columns: Int = 100, rows: Int = 30) async throws -> TmuxSession {
        #expect(FileManager.default.isExecutableFile(atPath: binary), "build the binary first (make test does): \(binary)")
        let session = try await TmuxSession(columns: columns, rows: rows, environment: [
            "XDG_STATE_HOME": "$PWD/state", "XDG_CONFIG_HOME": "$PWD/config",
        ])
        let config = #"{"symbols": ["AAPL", "MSFT"], "brokers": {"demo": {"seed": 7, "tickIntervalMs": 200}}}"#
        try await session.type("mkdir -p config/commonbroker && echo '\(config)' > config/commonbroker/config.json && stty -g > stty.before && clear")
        _ = try await session.waitForPrompt()
        return session
    }

    func rows(of symbol: String, in screen: String) -> [Substring] {
        screen.split(separator: "\n").filter { line in
            line.contains(symbol) && Self.brokerNames.contains { line.contains($0) }
        }
    }

    /// Runs after the app exits: the shell prompt is back and the tty settings are what they were before.
    func expectTerminalRestored(_ session: TmuxSession, _ comment: Comment) async throws {
        #expect(try await session.waitForPrompt(), "shell prompt not back (\(comment)):\n\(session.lastScreen)")
        try await session.type("stty -g > stty.after; cmp -s stty.before stty.after && echo TTY-SANE || echo TTY-BROKEN")
        let screen = try await session.waitForScreen { $0.contains("TTY-SANE") || $0.contains("TTY-BROKEN") }
        #expect(screen?.contains("TTY-SANE") == true, "terminal settings differ after exit (\(comment)):\n\(session.lastScreen)")
    }

    func startDemo(_ session: TmuxSession, arguments: String = "--demo") async throws -> String? {
        try await session.type("\(binary) \(arguments)")
        return try await session.waitForScreen { screen in
            screen.contains("DEMO") && Self.brokerNames.allSatisfy { name in self.rows(of: "MSFT", in: screen).contains { $0.contains(name) } }
        }
    }

    /// Signals the demo this session started, and no other: tests in parallel run the same command line.
    func signalDemo(_ signal: String, in session: TmuxSession) async throws -> (status: Int32, output: String) {
        guard let shell = try await session.shellPID() else { throw Subprocess.Failure(description: "tmux gave no pane pid") }
        return try await Subprocess.run("/usr/bin/pkill", ["-\(signal)", "-P", String(shell), "-f", "^\(binary) --demo"])
    }

    @Test func addDeleteQuitRestartAndResize() async throws {
        let session = try await makeSession()
        let first = try await startDemo(session)
        #expect(first != nil, "demo rows did not appear:\n\(session.lastScreen)")

        // Add NVDA with keys: one row per demo broker.
        try await session.send("a")
        #expect(try await session.waitFor("Add symbols") != nil, "add prompt did not open:\n\(session.lastScreen)")
        try await session.send("nvda", literal: true)
        try await session.send("Enter")
        let added = try await session.waitForScreen { self.rows(of: "NVDA", in: $0).count == 3 }
        #expect(added != nil, "expected three NVDA rows:\n\(session.lastScreen)")

        // The new symbol is selected; d removes it, u brings it back, d again.
        try await session.send("d")
        #expect(try await session.waitForScreen { self.rows(of: "NVDA", in: $0).isEmpty } != nil, "NVDA not removed:\n\(session.lastScreen)")
        try await session.send("u")
        #expect(try await session.waitForScreen { self.rows(of: "NVDA", in: $0).count == 3 } != nil, "undo did not restore NVDA:\n\(session.lastScreen)")

        // An invalid symbol is refused with a reason and Esc cancels the prompt.
        try await session.send("a")
        try await session.send("bad$", literal: true)
        try await session.send("Enter")
        #expect(try await session.waitFor("'$'") != nil, "no error for an invalid symbol:\n\(session.lastScreen)")
        try await session.send("Escape")
        #expect(try await session.waitForScreen { !$0.contains("Add symbols") } != nil, "Esc did not close the prompt")

        // Resize: narrow terminals drop columns, tiny ones say so, and the layout comes back.
        let wide = try await session.capture()
        #expect(wide.uppercased().contains("ASK"), "the wide layout shows the ask column:\n\(wide)")
        try await session.resize(columns: 60, rows: 20)
        let narrow = try await session.waitForScreen { screen in
            !screen.uppercased().contains("ASK") && self.rows(of: "MSFT", in: screen).count == 3
        }
        #expect(narrow != nil, "60x20 layout did not adapt:\n\(session.lastScreen)")
        try await session.resize(columns: 30, rows: 6)
        #expect(try await session.waitForScreen { $0.lowercased().contains("too small") } != nil, "no too-small message:\n\(session.lastScreen)")
        try await session.resize(columns: 100, rows: 30)
        #expect(try await session.waitForScreen { self.rows(of: "NVDA", in: $0).count == 3 && $0.uppercased().contains("ASK") } != nil)

        try await session.send("q")
        try await expectTerminalRestored(session, "after q")

        // Restart: the edited watchlist (with NVDA) was persisted.
        let again = try await startDemo(session)
        #expect(again != nil)
        #expect(try await session.waitForScreen { self.rows(of: "NVDA", in: $0).count == 3 } != nil, "NVDA not persisted:\n\(session.lastScreen)")
        try await session.send("C-c")
        try await expectTerminalRestored(session, "after Ctrl-C")
    }

    @Test func sigtermAndSighupRestoreTheTerminal() async throws {
        let session = try await makeSession()
        for signal in ["TERM", "HUP"] {
            #expect(try await startDemo(session) != nil, "demo did not start:\n\(session.lastScreen)")
            let kill = try await signalDemo(signal, in: session)
            #expect(kill.status == 0, "pkill found no commonbroker")
            try await expectTerminalRestored(session, "after SIG\(signal)")
            try await session.type("clear")
        }
    }

    /// A crash signal restores the terminal before the process dies. Swift's interactive backtracer is off
    /// here so the test does not wait on its prompt; by hand, with it on, the backtrace prints on a sane
    /// terminal and the process still exits with 139.
    @Test func crashSignalRestoresTheTerminalAndEndsTheProcess() async throws {
        let session = try await makeSession()
        try await session.type("export SWIFT_BACKTRACE=enable=no; clear")
        #expect(try await startDemo(session) != nil, "demo did not start:\n\(session.lastScreen)")
        let kill = try await signalDemo("SEGV", in: session)
        #expect(kill.status == 0, "pkill found no commonbroker")
        try await expectTerminalRestored(session, "after SIGSEGV")
        let shell = try await session.shellPID().map { String($0) } ?? "0"
        let gone = try await Subprocess.run("/usr/bin/pgrep", ["-P", shell, "-f", "^\(binary) --demo"])
        #expect(gone.status == 1, "the process survived its crash signal")
    }

    @Test func suspendAndResume() async throws {
        let session = try await makeSession()
        #expect(try await startDemo(session) != nil)
        try await session.send("C-z")
        #expect(try await session.waitForPrompt(), "Ctrl-Z did not give the shell back:\n\(session.lastScreen)")
        try await session.type("fg")
        let resumed = try await session.waitForScreen { screen in
            screen.contains("DEMO") && self.rows(of: "AAPL", in: screen).count == 3
        }
        #expect(resumed != nil, "fg did not redraw the watchlist:\n\(session.lastScreen)")
        try await session.send("q")
        try await expectTerminalRestored(session, "after suspend, resume and q")
    }

    @Test func printJSONGivesOneRowPerSymbolAndBroker() async throws {
        let binary = binary
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("cb-print-\(UUID().uuidString)")
        // Reading to end-of-file and waiting for the exit block: on a thread of their own.
        let (status, data) = try await DedicatedThread.run("print --json") { () throws -> (Int32, Data) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["print", "--json", "--demo", "--symbols", "MSFT,ZZZZ,AAPL"]
            process.environment = ["HOME": state.path, "XDG_STATE_HOME": state.path, "XDG_CONFIG_HOME": state.path, "PATH": "/usr/bin:/bin"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, data)
        }
        #expect(status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let ids = rows.compactMap { $0["id"] as? String }
        #expect(ids == [
            "demo-alpha:AAPL", "demo-beta:AAPL", "demo-gamma:AAPL",
            "demo-alpha:MSFT", "demo-beta:MSFT", "demo-gamma:MSFT",
            "demo-alpha:ZZZZ", "demo-beta:ZZZZ", "demo-gamma:ZZZZ",
        ])
        let gammaZ = try #require(rows.first { $0["id"] as? String == "demo-gamma:ZZZZ" })
        #expect(gammaZ["error"] as? String == "unknown symbol ZZZZ")
        #expect(gammaZ["last"] is NSNull)
        let alphaA = try #require(rows.first { $0["id"] as? String == "demo-alpha:AAPL" })
        #expect((alphaA["last"] as? Double ?? 0) > 0)
        #expect(alphaA["error"] is NSNull)
        for key in ["symbol", "brand", "change", "timestamp"] { #expect(alphaA[key] != nil, "missing \(key)") }
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("commonbroker/watchlist.json").path),
                "--symbols is for this run only and must not be persisted")
    }
}
