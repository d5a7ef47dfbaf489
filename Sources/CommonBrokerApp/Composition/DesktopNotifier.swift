import Foundation
import Interactors
import TextSafety

/// Shows an alert as a desktop notification by running `notify-send` (libnotify), when it is on the
/// PATH. The text goes as argv, never through a shell; control characters are spelled out and the
/// body's `&`, `<`, `>` are written as entities, because notification servers may read the body as
/// markup (Desktop Notifications Specification, "Markup"). Nothing it prints may reach the terminal
/// curses owns, so its standard streams go to /dev/null.
struct DesktopNotifier: Sendable {
    let executable: String

    /// The notifier, or nil when no `notify-send` is found on `PATH`.
    static func find(environment: [String: String]) -> DesktopNotifier? {
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in directories where !directory.isEmpty {
            let candidate = directory + "/notify-send"
            if FileManager.default.isExecutableFile(atPath: candidate) { return DesktopNotifier(executable: candidate) }
        }
        return nil
    }

    /// The arguments after the program: `--` ends the options, so a title starting with `-` is text.
    static func arguments(for notification: DesktopNotification) -> [String] {
        ["--app-name=commonbroker", "--", VisibleText.escaped(notification.title), markupEscaped(VisibleText.escaped(notification.body))]
    }

    static func markupEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Starts `notify-send` and returns without waiting: a slow notification daemon must not hold up
    /// the screen. A failure to start is not worth interrupting anyone for.
    func send(_ notification: DesktopNotification) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Self.arguments(for: notification)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }
}
