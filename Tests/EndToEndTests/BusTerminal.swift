import Foundation
import TestSupport

/// One terminal of the bus tests: the real app in a tmux session of its own, with a state directory of
/// its own (as another user's or window's would be), its lease decisions traced to a file
/// (`COMMONBROKER_BUS_TRACE`, written to standard error, which the screen cannot show).
final class BusTerminal {
    let name: String
    let session: TmuxSession
    var trace: URL { session.workDirectory.appendingPathComponent("bus-trace.log") }

    init(name: String, config: String) async throws {
        self.name = name
        session = try await TmuxSession(columns: 200, rows: 14, environment: ["XDG_STATE_HOME": "$PWD/state", "COMMONBROKER_BUS_TRACE": "1"])
        try await session.type("\(CommonBrokerBinary.path) --config \(config) 2>\(trace.path)")
    }

    /// The screen now, kept in `lastScreen`.
    func capture() async throws -> String {
        lastScreen = try await session.capture()
        return lastScreen
    }

    private(set) var lastScreen = ""

    /// The app's process: the child of the pane's shell that runs commonbroker (the shell forks it to
    /// redirect its standard error, so it is a child, not the shell itself).
    func appPID() async throws -> pid_t? {
        let result = try await Subprocess.run("/usr/bin/tmux", ["-L", session.socket, "display-message", "-p", "-t", "e2e", "#{pane_pid}"])
        guard let shell = pid_t(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.first { pid in
            guard Self.parent(of: pid) == shell, let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return data.split(separator: 0).first.map { String(decoding: $0, as: UTF8.self).hasSuffix("commonbroker") } == true
        }
    }

    /// The trace without the lease renewals every process sees each `TTL / 3`, for a failure message.
    func traceDecisions() -> String {
        let text = (try? String(contentsOf: trace, encoding: .utf8)) ?? "(no trace)"
        return "\(name):\n" + text.split(separator: "\n").filter { !$0.contains(": lease at revision") }.suffix(30).joined(separator: "\n")
    }

    /// proc(5): the fourth field of /proc/PID/stat, counted after the command name's closing ')'.
    private static func parent(of pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }
}
