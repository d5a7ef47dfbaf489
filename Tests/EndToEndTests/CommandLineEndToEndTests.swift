import Foundation
import TestSupport
import Testing

/// What the binary does before any broker or screen is involved: help, and refusing a terminal it cannot use.
@Suite(.serialized) struct CommandLineEndToEndTests {
    var binary: String { CommonBrokerBinary.path }

    /// Without the final newline the shell's prompt landed on the last line of the help.
    @Test func helpEndsWithANewline() async throws {
        let result = try await Subprocess.run(binary, ["--help"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("commonbroker "))
        #expect(result.output.hasSuffix("\n"), "\(result.output.suffix(80).debugDescription)")
    }

    /// TERM=dumb used to show one frozen line ("0 symbols", a clock that never moved) and leave it behind.
    /// Now the app refuses before curses starts: the lines between the command and its exit status are the
    /// message alone, and the exit status is not 0.
    @Test func termDumbIsRefusedBeforeCursesStarts() async throws {
        let session = try await TmuxSession(columns: 160, rows: 20, environment: [
            "XDG_STATE_HOME": "$PWD/state", "XDG_CONFIG_HOME": "$PWD/config",
        ])
        // "EX""IT" so the typed command itself does not show the marker.
        try await session.type("TERM=dumb \(binary) --demo; echo \"EX\"\"IT=$?\"")
        let screen = try await session.waitForScreen(timeout: 10) { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix("EXIT=") }
        }
        if screen == nil { try await session.send("q") }  // before the fix the app ran, drawing nothing useful
        let lines = try #require(screen, "the app did not exit on TERM=dumb:\n\(session.lastScreen)")
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let command = try #require(lines.firstIndex { $0.contains("TERM=dumb") && $0.contains("--demo") })
        let exit = try #require(lines.firstIndex { $0.hasPrefix("EXIT=") })
        #expect(Array(lines[(command + 1)..<exit]) == [
            "commonbroker: TERM=dumb cannot move the cursor; run it in a full terminal (e.g. TERM=xterm-256color) or use 'commonbroker print'",
        ], "\(session.lastScreen)")
        #expect(lines[exit] == "EXIT=1")
        #expect(try await session.waitForPrompt())
    }
}
