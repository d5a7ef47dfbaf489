import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// Time from spawning `commonbroker --demo` in a pseudo-terminal to its first complete frame: the
/// footer's last key hint ("quit") is on the bottom row, which curses writes last.
struct StartupBenchmark: Sendable {
    var runs = 3
    var binary: String
    var timeout: Duration = .seconds(5)
    var log: @Sendable (String) -> Void = { _ in }

    static let firstFrameMarker = "quit"
    static let size = (columns: UInt16(100), rows: UInt16(30))

    func run() -> Figures {
        var figures = Figures()
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            figures.note("startup", "not measured: \(binary) not found (build it with `swift build -c release --product commonbroker`)")
            return figures
        }
        #if canImport(Glibc)
        for run in 1...runs {
            log("startup, run \(run)")
            switch firstFrame() {
            case .success(let seconds): figures.add("startup.firstFrameMilliseconds", seconds * 1e3)
            case .failure(let reason):
                figures.note("startup", "not measured: \(reason)")
                return figures
            }
        }
        figures.note("startup", "\(binary) --demo in a \(Self.size.columns)x\(Self.size.rows) pty, TERM=xterm-256color, fresh XDG dirs; first frame = footer drawn")
        #else
        figures.note("startup", "not measured: the pty launcher is Linux-only")
        #endif
        return figures
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    #if canImport(Glibc)
    private func firstFrame() -> Result<Double, Failure> {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cb-bench-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let state = scratch.appendingPathComponent("state").path
        let config = scratch.appendingPathComponent("config").path
        try? FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)

        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["XDG_STATE_HOME"] = state
        environment["XDG_CONFIG_HOME"] = config
        environment["LANG"] = environment["LANG"] ?? "C.UTF-8"
        environment["COLUMNS"] = nil
        environment["LINES"] = nil

        let terminal: PseudoTerminalProcess
        switch PseudoTerminalProcess.spawn(
            [binary, "--demo"], environment: environment, columns: Self.size.columns, rows: Self.size.rows)
        {
        case .success(let spawned): terminal = spawned
        case .failure(let error): return .failure(Failure(description: error.description))
        }
        defer { terminal.stop() }

        let deadline = terminal.startedAt + UInt64(timeout.wholeNanoseconds)
        var output: [UInt8] = []
        while MonotonicTime.now() < deadline {
            guard let chunk = terminal.read(until: deadline) else { break }
            output += chunk
            if TerminalOutput.visibleText(output).contains(Self.firstFrameMarker) {
                let seconds = MonotonicTime.seconds(MonotonicTime.now() - terminal.startedAt)
                terminal.send("q")
                return .success(seconds)
            }
        }
        let tail = String(decoding: TerminalOutput.visibleText(output).utf8.suffix(200), as: UTF8.self)
        return .failure(Failure(description: "no frame within \(timeout) (exit: \(terminal.exitDescription ?? "running"); output: \(tail.debugDescription))"))
    }
    #endif
}

/// What a terminal shows of a byte stream, roughly: escape sequences removed.
enum TerminalOutput {
    static func visibleText(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B, index + 1 < bytes.count {
                let next = bytes[index + 1]
                index += 2
                if next == UInt8(ascii: "[") {
                    // CSI: parameters and intermediates up to a final byte in 0x40...0x7E.
                    while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
                    index += 1
                } else if next == UInt8(ascii: "]") {
                    // OSC: up to BEL or ST.
                    while index < bytes.count, bytes[index] != 0x07, bytes[index] != 0x1B { index += 1 }
                    index += 1
                } else if next == UInt8(ascii: "(") || next == UInt8(ascii: ")") {
                    index += 1
                }
                continue
            }
            text.append(byte)
            index += 1
        }
        return String(decoding: text, as: UTF8.self)
    }
}
