import TestSupport
import Foundation
import Testing

/// A price alert in the real binary under tmux: set with `!`, fired by the next streamed quote (the
/// terminal bell reaches the pane, the row is marked, the log has it), still listed after a restart, and
/// evaluated headless by `commonbroker alerts check`.
@Suite(.serialized) struct AlertsEndToEndTests {
    let demo = DemoEndToEndTests()

    /// The same config as `--demo` alone would read, named first: DemoEndToEndTests ends its apps with
    /// `pkill -f '^<binary> --demo'`, which must not match this suite's app when the suites run at once.
    let arguments = "--config config/commonbroker/config.json --demo"

    /// Reads every byte the app writes to the pane, as a terminal would receive it.
    private func pipeOutput(of session: TmuxSession, to file: URL) async throws {
        let result = try await Subprocess.run("/usr/bin/tmux", ["-L", session.socket, "pipe-pane", "-t", "e2e", "-o", "cat >> '\(file.path)'"])
        #expect(result.status == 0, "pipe-pane failed: \(result.output)")
    }

    private func bells(in file: URL) -> Int {
        ((try? Data(contentsOf: file)) ?? Data()).filter { $0 == 0x07 }.count
    }

    @Test func anAlertTheMarketMeetsFiresOnTheNextQuoteRingsIsLoggedAndSurvivesARestart() async throws {
        let session = try await demo.makeSession(columns: 120, rows: 35)
        let raw = session.workDirectory.appendingPathComponent("pane.raw")
        #expect(try await demo.startDemo(session, arguments: arguments) != nil, "demo did not start:\n\(session.lastScreen)")
        try await pipeOutput(of: session, to: raw)
        // Drawing the table rings nothing: any bell later is the alert's.
        #expect(try await session.waitForScreen { _ in true } != nil)
        #expect(bells(in: raw) == 0, "a bell before any alert")

        // The first row is AAPL at Alpha Demo, some $250. At or above $1: met by every quote, so the next
        // one streamed after the alert is set fires it. Not a target a hair above the price: the demo's
        // walk is a function of the wall clock, and where AAPL fell for a minute (00:02–00:13 UTC on
        // 2026-11-29) the prices moved down in the seconds between the dialog opening (the reference
        // price) and Enter, and no broker came back up within the wait. Crossing a target is the
        // evaluator's (AlertEvaluatorTests); this test is the wiring from the stream to the bell.
        try await session.send("g")
        try await session.send("!")
        #expect(try await session.waitFor("Set an alert") != nil, "the alert dialog did not open:\n\(session.lastScreen)")
        try await session.send(">1", literal: true)
        try await session.send("Enter")
        // The next quote may come before the screen is read, so the firing can replace the "set" message at once.
        let set = try await session.waitForScreen { $0.contains("Alert #1 set: AAPL > 1") || $0.contains("Alert: AAPL > 1 at") }
        #expect(set != nil, "the alert was not set:\n\(session.lastScreen)")

        let fired = try await session.waitForScreen(timeout: 30) { $0.contains("Alert: AAPL > 1 at") }
        #expect(fired != nil, "the alert did not fire:\n\(session.lastScreen)")
        // The row it fired on is marked in the margin.
        let marked = try await session.waitForScreen { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix("!AAPL") }
        }
        #expect(marked != nil, "no marked row:\n\(session.lastScreen)")
        // The bell reached the terminal: curses wrote BEL (tmux-256color's bel).
        var rang = false
        for _ in 0..<(100 * TestTime.scale) where !rang {
            rang = bells(in: raw) > 0
            if !rang { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(rang, "no BEL in the pane's output")

        // The log lists it, newest first, with the alert set; opening it clears the mark.
        try await session.send("L")
        let log = try await session.waitForScreen { $0.contains("Fired this run") && $0.contains("Set alerts") }
        #expect(log != nil, "the alert log did not open:\n\(session.lastScreen)")
        let logLines = (log ?? "").split(separator: "\n")
        #expect(logLines.contains { $0.contains("AAPL") && $0.contains("> 1") && $0.contains(":") }, "no log entry:\n\(log ?? "")")
        #expect(logLines.contains { $0.contains("#1") && $0.contains("AAPL") && $0.contains("fired") }, "the set alert is not listed as fired:\n\(log ?? "")")
        try await session.send("Escape")
        #expect(try await session.waitForScreen { !$0.contains("Fired this run") && !$0.split(separator: "\n").contains { $0.hasPrefix("!AAPL") } } != nil,
                "the mark stayed after the log was seen:\n\(session.lastScreen)")

        // Quit, start again: the alert is still there, as fired (it does not ring again).
        try await session.send("q")
        #expect(try await session.waitForPrompt(), "the app did not quit:\n\(session.lastScreen)")
        let saved = try String(contentsOf: session.workDirectory.appendingPathComponent("state/commonbroker/watchlist.json"), encoding: .utf8)
        #expect(saved.contains("\"alerts\"") && saved.contains("\"above\"") && saved.contains("\"price\" : \"1\""), "not saved:\n\(saved)")
        let bellsBefore = bells(in: raw)
        #expect(try await demo.startDemo(session, arguments: arguments) != nil, "demo did not start again:\n\(session.lastScreen)")
        try await session.send("L")
        let again = try await session.waitForScreen { $0.contains("Set alerts") && $0.contains("#1") }
        #expect(again?.contains("nothing yet") == true, "a fired once-alert fired again after the restart:\n\(again ?? session.lastScreen)")
        #expect(again?.split(separator: "\n").contains { $0.contains("#1") && $0.contains("AAPL") && $0.contains("fired") } == true,
                "the alert is not listed after the restart:\n\(session.lastScreen)")

        // d deletes it; the file no longer has it.
        try await session.send("d")
        #expect(try await session.waitFor("Deleted alert #1") != nil, "d did not delete:\n\(session.lastScreen)")
        // L closes the log too (an Escape right before q would read as Alt-q).
        try await session.send("L")
        #expect(try await session.waitForScreen { !$0.contains("Set alerts") } != nil, "the log did not close:\n\(session.lastScreen)")
        try await session.send("q")
        #expect(try await session.waitForPrompt(), "the app did not quit:\n\(session.lastScreen)")
        #expect(bells(in: raw) == bellsBefore, "a bell after the restart")
        let after = try String(contentsOf: session.workDirectory.appendingPathComponent("state/commonbroker/watchlist.json"), encoding: .utf8)
        #expect(!after.contains("\"alerts\""), "the deleted alert is still saved:\n\(after)")
    }

    /// The status `echo STATUS=$?` printed after the command line naming `output`: a line that starts
    /// with it (the command line itself holds "STATUS=$?", and an earlier command's status may still show).
    static func exitStatus(in screen: String, after output: String = "check1.out") -> Int? {
        let lines = screen.split(separator: "\n")
        guard let command = lines.lastIndex(where: { $0.contains(output) }) else { return nil }
        return lines[command...].lazy.compactMap { line in
            line.hasPrefix("STATUS=") ? Int(line.dropFirst("STATUS=".count).trimmingCharacters(in: .whitespaces)) : nil
        }.first
    }

    @Test func alertsCheckFiresHeadlessPrintsJSONLinesAndSavesTheState() async throws {
        let session = try await demo.makeSession()
        // Two alerts written as the app writes them: one far below the demo's AAPL (it fires at once),
        // one far above (it cannot).
        let file = #"""
            {"version": 2, "lists": [{"name": "Watchlist", "symbols": ["AAPL"]}], "alerts": [
              {"id": 1, "symbol": "AAPL", "condition": "above", "price": "1", "broker": "any", "rearm": false, "created": "2026-01-02T03:04:05Z", "state": "armed"},
              {"id": 2, "symbol": "AAPL", "condition": "above", "price": "100000", "broker": "demo-beta", "rearm": true, "created": "2026-01-02T03:04:05Z", "state": "armed"}
            ]}
            """#
        try FileManager.default.createDirectory(at: session.workDirectory.appendingPathComponent("state/commonbroker"), withIntermediateDirectories: true)
        try Data(file.utf8).write(to: session.workDirectory.appendingPathComponent("state/commonbroker/watchlist.json"))

        try await session.type("\(demo.binary) alerts check --json --demo > check1.out; echo STATUS=$?")
        // The typed command line holds "STATUS=$?" itself: wait for the line the shell printed.
        #expect(try await session.waitForScreen { Self.exitStatus(in: $0) != nil } != nil)
        #expect(Self.exitStatus(in: session.lastScreen) == 3, "some fired: status 3:\n\(session.lastScreen)")
        let lines = try String(contentsOf: session.workDirectory.appendingPathComponent("check1.out"), encoding: .utf8)
            .split(separator: "\n")
        // One line per fired alert: alert 1 fires once, on the first broker's quote in (symbol, broker) order.
        #expect(lines.count == 1, "one line per fired alert:\n\(lines)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        #expect(object["id"] as? Int == 1)
        #expect(object["symbol"] as? String == "AAPL")
        #expect(object["state"] as? String == "fired")
        #expect((object["firedBroker"] as? String)?.hasPrefix("demo-") == true)

        // Saved as fired: the next check fires nothing and exits 0.
        try await session.type("\(demo.binary) alerts check --json --demo > check2.out; echo STATUS=$?")
        #expect(try await session.waitForScreen { Self.exitStatus(in: $0, after: "check2.out") != nil } != nil)
        #expect(Self.exitStatus(in: session.lastScreen, after: "check2.out") == 0, "nothing more fires:\n\(session.lastScreen)")
        #expect(try String(contentsOf: session.workDirectory.appendingPathComponent("check2.out"), encoding: .utf8).isEmpty)

        try await session.type("clear; \(demo.binary) alerts list --demo")
        let list = try await session.waitForScreen { $0.contains("#2") && $0.contains("e2e$") }
        #expect(list?.contains("ID  SYMBOL") == true, "no table:\n\(session.lastScreen)")
        #expect(list?.split(separator: "\n").contains { $0.contains("#1") && $0.contains("fired") } == true, "\(session.lastScreen)")
        #expect(list?.split(separator: "\n").contains { $0.contains("#2") && $0.contains("Beta Demo") && $0.contains("rearms") && $0.contains("armed") } == true,
                "\(session.lastScreen)")
    }
}
