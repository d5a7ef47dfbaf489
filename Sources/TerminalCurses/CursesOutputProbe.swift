#if canImport(Glibc)
import TerminalKit
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Draws frames through the app's own output path, `CursesScreen` (ncurses on this process's
/// terminal), and writes `marker` to the terminal after set-up and after each step, so whatever reads
/// the other side of the terminal (the benchmark, through a pty) can count the bytes each step cost.
/// For measurement only; the app draws through `TerminalSession`.
public enum CursesOutputProbe {
    public enum Step: Sendable {
        /// Draws what changed since the previous frame, as the app does.
        case frame(ScreenBuffer)
        /// Clears the screen and draws every cell, as after a resize or Ctrl-L.
        case repaint(ScreenBuffer)
    }

    public static func run(_ steps: [Step], marker: [UInt8], color: Bool = true) throws(TerminalError) {
        let screen = try CursesScreen(color: color)
        defer { screen.close() }
        emit(marker)
        for step in steps {
            switch step {
            case .frame(let frame):
                screen.draw(frame)
            case .repaint(let frame):
                screen.invalidate()
                screen.draw(frame)
            }
            emit(marker)
        }
    }

    /// After ncurses has flushed what `doupdate` wrote, so the marker lands between frames.
    private static func emit(_ bytes: [UInt8]) {
        fflush(nil)  // every stream, in case this ncurses buffers through stdio
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
