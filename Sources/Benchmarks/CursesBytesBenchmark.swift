import Foundation
import Interactors
import TerminalCurses
import TerminalUI
import TerminalKit

/// The bytes a one-row change and a full repaint cost through the app's real output path: this
/// executable runs itself in a pseudo-terminal of the frame's size (`--curses-probe-child`), draws
/// the 1,000-row watchlist with ncurses as the app does, marking the end of each step, and the parent
/// counts what reached the terminal between the marks.
enum CursesBytesBenchmark {
    static let childFlag = "--curses-probe-child"
    /// An OSC string no frame contains; terminals ignore it.
    static let marker = Array("\u{1B}]7777;cb-bench-step\u{07}".utf8)

    struct Counts: Sendable {
        var oneRowChange: Int
        var fullRepaint: Int
    }

    /// In the child: the first frame, the one-row change, then a repaint of the changed frame.
    static func runChild(_ arguments: [String]) -> Never {
        let size = ScreenSize(columns: Int(arguments.first.flatMap(Int.init) ?? 120), rows: Int(arguments.dropFirst().first.flatMap(Int.init) ?? 40))
        let before = RendererBenchmark.state()
        let after = RendererBenchmark.stateWithOneRowChanged(before, index: 2)
        func render(_ state: WatchlistViewState) -> ScreenBuffer {
            WatchlistScreen.render(state, size: size, now: RendererBenchmark.now, options: RendererBenchmark.options)
        }
        do throws(TerminalError) {
            try CursesOutputProbe.run([.frame(render(before)), .frame(render(after)), .repaint(render(after))], marker: marker)
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("curses probe: \(error)\n".utf8))
            exit(1)
        }
    }

    #if canImport(Glibc)
    /// In the parent: nil with a reason when the child could not draw.
    static func measure(size: ScreenSize) -> Result<Counts, PseudoTerminalProcess.SpawnError> {
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["COLUMNS"] = nil
        environment["LINES"] = nil
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        let terminal: PseudoTerminalProcess
        switch PseudoTerminalProcess.spawn(
            [executable, childFlag, String(size.columns), String(size.rows)], environment: environment,
            columns: UInt16(size.columns), rows: UInt16(size.rows))
        {
        case .success(let spawned): terminal = spawned
        case .failure(let error): return .failure(error)
        }
        defer { terminal.stop() }
        let deadline = MonotonicTime.now() + 20_000_000_000
        var output: [UInt8] = []
        // Set-up, the first frame, the change, the repaint: four marks.
        while segments(of: output).count < 5, let chunk = terminal.read(until: deadline) {
            output += chunk
        }
        let parts = segments(of: output)
        guard parts.count >= 5 else {
            return .failure(.init(description: "the curses probe drew \(parts.count - 1) of 4 steps (exit: \(terminal.exitDescription ?? "running"))"))
        }
        return .success(Counts(oneRowChange: parts[2], fullRepaint: parts[3]))
    }
    #endif

    /// Byte counts between markers (the last entry is what follows the last marker).
    static func segments(of output: [UInt8]) -> [Int] {
        var counts: [Int] = []
        var start = 0
        var index = 0
        while index + marker.count <= output.count {
            if output[index] == marker[0], output[index..<(index + marker.count)].elementsEqual(marker) {
                counts.append(index - start)
                index += marker.count
                start = index
            } else {
                index += 1
            }
        }
        counts.append(output.count - start)
        return counts
    }
}
