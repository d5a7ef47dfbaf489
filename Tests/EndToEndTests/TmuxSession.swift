import TestSupport
import Foundation

/// A detached tmux server of its own (its own socket), running a shell the test types into, the way a
/// person would. `capture()` reads the screen as text. Works with no terminal attached (CI).
///
/// Every tmux command is an awaited `Subprocess.run` and every wait a `Task.sleep`: a blocked thread of
/// the test runner's small cooperative pool (2 threads on 2 cores) would stall every other test.
final class TmuxSession {
    let socket: String
    let workDirectory: URL

    init(columns: Int = 100, rows: Int = 30, environment: [String: String]) async throws {
        socket = "cb-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        // A plain shell with a recognisable prompt; the app's environment is exported in it.
        let exports = environment.sorted { $0.key < $1.key }.map { "export \($0.key)=\"\($0.value)\"" }.joined(separator: "; ")
        try await tmux(["-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", "\(columns)", "-y", "\(rows)",
                  "env -i PATH=/usr/bin:/bin HOME=\(workDirectory.path) TERM=tmux-256color LANG=C.UTF-8 PS1='e2e$ ' bash --norc --noprofile"])
        try await tmux(["set-option", "-g", "window-size", "manual"])
        try await type("cd \(workDirectory.path); \(exports); clear")
        try await requireShellPrompt()
    }

    /// Killing the server blocks (a subprocess), so it runs on a thread of its own; the test process
    /// waits for it at exit.
    deinit {
        let workDirectory = workDirectory
        Subprocess.runDetached(Self.executable, ["-L", socket, "kill-server"]) {
            try? FileManager.default.removeItem(at: workDirectory)
        }
    }

    /// Types a line into the shell and presses Enter.
    func type(_ line: String) async throws {
        try await tmux(["send-keys", "-t", "e2e", "-l", line])
        try await tmux(["send-keys", "-t", "e2e", "Enter"])
    }

    /// Sends tmux key names (e.g. "Escape", "C-c", "Up") or literal text with `literal: true`.
    func send(_ keys: String..., literal: Bool = false) async throws {
        try await tmux(["send-keys", "-t", "e2e"] + (literal ? ["-l"] : []) + keys)
    }

    func capture() async throws -> String {
        try await tmux(["capture-pane", "-p", "-t", "e2e"])
    }

    /// The pane's shell: what it starts are its children, so a signal can be sent to this test's app
    /// alone (`pkill -P`), not to another test's app that runs the same command line in parallel.
    func shellPID() async throws -> Int32? {
        Int32(try await tmux(["display-message", "-p", "-t", "e2e", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The screen with its colors and attributes as escape sequences (`capture-pane -e`).
    func captureWithStyles() async throws -> String {
        try await tmux(["capture-pane", "-p", "-e", "-t", "e2e"])
    }

    func resize(columns: Int, rows: Int) async throws {
        try await tmux(["resize-window", "-t", "e2e", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Polls the screen until `condition` holds (bounded by `timeout`, scaled by `TestTime`); returns the
    /// screen it held on, or nil with the last screen in `lastScreen` for the failure message.
    func waitForScreen(timeout: TimeInterval = 15, _ condition: (String) -> Bool) async throws -> String? {
        let deadline = Date().addingTimeInterval(TestTime.scaled(timeout))
        repeat {
            if let screen = try await poll(condition) { return screen }
            try await Task.sleep(for: .milliseconds(50))
        } while Date() < deadline
        return nil
    }

    private func poll(_ condition: (String) -> Bool) async throws -> String? {
        let screen = try await capture()
        lastScreen = screen
        return condition(screen) ? screen : nil
    }

    private(set) var lastScreen = ""
    /// The last screen read with its styles, for failure messages.
    var lastStyledScreen = ""

    func waitFor(_ text: String, timeout: TimeInterval = 15) async throws -> String? {
        try await waitForScreen(timeout: timeout) { $0.contains(text) }
    }

    /// True when the shell prompt is the last non-empty line: the app has exited and given the terminal back.
    func waitForPrompt(timeout: TimeInterval = 15) async throws -> Bool {
        try await waitForScreen(timeout: timeout, Self.showsPrompt) != nil
    }

    private static func showsPrompt(_ screen: String) -> Bool {
        screen.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })?
            .trimmingCharacters(in: .whitespaces) == "e2e$"
    }

    private static let executable = "/usr/bin/tmux"

    @discardableResult
    private func tmux(_ arguments: [String]) async throws -> String {
        let result = try await Subprocess.run(Self.executable, ["-L", socket] + arguments)
        guard result.status == 0 else {
            throw TmuxError(arguments: arguments, status: result.status, output: result.output)
        }
        return result.output
    }

    private func requireShellPrompt() async throws {
        let deadline = Date().addingTimeInterval(TestTime.scaled(15))
        var ready = try await poll(Self.showsPrompt) != nil
        while !ready, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
            ready = try await poll(Self.showsPrompt) != nil
        }
        guard ready else {
            throw TmuxError(arguments: ["(waiting for the shell prompt)"], status: -1, output: lastScreen)
        }
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    let output: String
    var description: String { "tmux \(arguments.joined(separator: " ")) failed (\(status)): \(output)" }
}
