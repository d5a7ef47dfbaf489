import TestSupport
import Foundation

/// A detached tmux server of its own (its own socket), running a shell the test types into, the way a
/// person would. `capture()` reads the screen as text. Works with no terminal attached (CI).
final class TmuxSession {
    let socket: String
    let workDirectory: URL

    init(columns: Int = 100, rows: Int = 30, environment: [String: String]) throws {
        socket = "cb-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        // A plain shell with a recognisable prompt; the app's environment is exported in it.
        let exports = environment.sorted { $0.key < $1.key }.map { "export \($0.key)=\"\($0.value)\"" }.joined(separator: "; ")
        try tmux(["-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", "\(columns)", "-y", "\(rows)",
                  "env -i PATH=/usr/bin:/bin HOME=\(workDirectory.path) TERM=tmux-256color LANG=C.UTF-8 PS1='e2e$ ' bash --norc --noprofile"])
        try tmux(["set-option", "-g", "window-size", "manual"])
        try type("cd \(workDirectory.path); \(exports); clear")
        try requireShellPrompt()
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: workDirectory)
    }

    /// Types a line into the shell and presses Enter.
    func type(_ line: String) throws {
        try tmux(["send-keys", "-t", "e2e", "-l", line])
        try tmux(["send-keys", "-t", "e2e", "Enter"])
    }

    /// Sends tmux key names (e.g. "Escape", "C-c", "Up") or literal text with `literal: true`.
    func send(_ keys: String..., literal: Bool = false) throws {
        try tmux(["send-keys", "-t", "e2e"] + (literal ? ["-l"] : []) + keys)
    }

    func capture() throws -> String {
        try tmux(["capture-pane", "-p", "-t", "e2e"])
    }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "e2e", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Polls the screen until `condition` holds (bounded); returns the screen it held on, or nil with the
    /// last screen in `lastScreen` for the failure message. Sleeps with `Task.sleep`: a blocked thread of
    /// the test runner's small cooperative pool (2 threads on 2 cores) would stall every other test.
    func waitForScreen(timeout: TimeInterval = 15, _ condition: (String) -> Bool) async throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let screen = try poll(condition) { return screen }
            try await Task.sleep(for: .milliseconds(50))
        } while Date() < deadline
        return nil
    }

    private func poll(_ condition: (String) -> Bool) throws -> String? {
        let screen = try capture()
        lastScreen = screen
        return condition(screen) ? screen : nil
    }

    private(set) var lastScreen = ""

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

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let result = try Subprocess.run("/usr/bin/tmux", ["-L", socket] + arguments)
        guard result.status == 0 else {
            throw TmuxError(arguments: arguments, status: result.status, output: result.output)
        }
        return result.output
    }

    /// Blocking, but only while a fresh shell starts (milliseconds).
    private func requireShellPrompt() throws {
        let deadline = Date().addingTimeInterval(15)
        var ready = try poll(Self.showsPrompt) != nil
        while !ready, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            ready = try poll(Self.showsPrompt) != nil
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
