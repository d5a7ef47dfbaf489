import Foundation

/// Issue 18 item 1: from the moment a broker's frame is written to the moment the screen shows its
/// price. Each scenario is one run of Tests/Fixtures/bench/wire_to_screen.py: the release app in a
/// 120x50 pseudo-terminal, four stream fixture servers (Polygon, Alpaca, Finnhub, Tradier) over loopback
/// pacing `rate / 4` events per second each, round-robin over the watchlist, with prices that carry each
/// event's sequence number; the screen is read by pyte (an independent terminal emulator fed the raw pty
/// bytes), never by the app's own clock. The probe joins what pyte saw with the fixtures' write logs.
/// Python does the reading so that the clock that stamps the screen is not the app's and the emulator is
/// not ours; this type picks the scenarios and turns their JSON into figures.
struct WireToScreenBenchmark: Sendable {
    struct Scenario: Sendable, Hashable {
        var symbolsPerBroker: Int
        var eventsPerSecond: Int

        /// The figures' name: `wire.50symbols.1000perSecond`.
        var figure: String { "wire.\(symbolsPerBroker)symbols.\(eventsPerSecond)perSecond" }
        /// As `--wire-scenarios` names it: `50x1000`.
        var label: String { "\(symbolsPerBroker)x\(eventsPerSecond)" }
    }

    static let symbolCounts = [50, 200, 500]
    static let rates = [100, 1_000, 10_000]
    static let loaded = symbolCounts.flatMap { symbols in rates.map { Scenario(symbolsPerBroker: symbols, eventsPerSecond: $0) } }
    /// A change that arrives when nothing was drawn for a frame interval: 10 events/s over 10 symbols per
    /// broker, so every row is on the 50-row screen and nearly every event finds the screen idle.
    static let idle = Scenario(symbolsPerBroker: 10, eventsPerSecond: 10)
    static let demoLabel = "demo"
    /// Issue 18 counts the app's memory with every row's 30-minute history full: the probe starts the app
    /// with them (Sources/Stores/HistoryBackfill.swift), since a window of seconds would leave them empty.
    static let historyMinutes = 30

    var binary: String
    var python: String
    var script: String
    var seconds = 20.0
    var warmup = 3.0
    /// Labels (`50x1000`, `idle`, `demo`) to run; empty = all.
    var only: Set<String> = []
    var log: @Sendable (String) -> Void = { _ in }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func run() -> Figures {
        var figures = Figures()
        if let missing = missingTool() {
            figures.note("wire", "not measured: \(missing)")
            return figures
        }
        figures.note("wire", "\(binary) in a 120x50 pty (TERM=xterm-256color), four fixture brokers over loopback at rate/4 events/s each, "
                     + "\(Format.seconds(seconds)) window after the brokers are live and \(Format.seconds(warmup)) more; screen read by pyte; "
                     + "every row starts with its \(Self.historyMinutes)-minute price history full (COMMONBROKER_TEST_HISTORY_MINUTES), "
                     + "prices within $400 a row (--sequence-modulus)")
        let scenarios = [Self.idle] + Self.loaded
        for scenario in scenarios where wanted(scenario == Self.idle ? "idle" : scenario.label) {
            log("wire to screen, \(scenario.symbolsPerBroker) symbols per broker at \(scenario.eventsPerSecond) events/s")
            record(probe(["--symbols", String(scenario.symbolsPerBroker), "--rate", String(scenario.eventsPerSecond)]),
                   as: scenario.figure, into: &figures)
        }
        if wanted(Self.demoLabel) {
            log("wire to screen, the demo at its default rate")
            record(probe(["--demo"]), as: "wire.demo", into: &figures)
        }
        return figures
    }

    private func wanted(_ label: String) -> Bool { only.isEmpty || only.contains(label) }

    private func missingTool() -> String? {
        if !FileManager.default.isExecutableFile(atPath: binary) {
            return "\(binary) not found (build it with `swift build -c release --product commonbroker`)"
        }
        if !FileManager.default.isExecutableFile(atPath: python) {
            return "no Python at \(python) (`make bench` makes .venv with websockets and pyte)"
        }
        if !FileManager.default.fileExists(atPath: script) { return "\(script) not found" }
        return nil
    }

    /// The probe's JSON object, or why there is none.
    private func probe(_ arguments: [String]) -> Result<[String: Any], ProbeFailure> {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("cb-wire-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: out) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-u", script, "--app", binary, "--python", python, "--seconds", String(seconds),
                             "--warmup", String(warmup), "--history-minutes", String(Self.historyMinutes), "--out", out.path] + arguments
        process.standardInput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return .failure(ProbeFailure(description: "cannot start \(python) \(script): \(error)"))
        }
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let data = FileManager.default.contents(atPath: out.path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            let tail = String(decoding: stderr.suffix(300), as: UTF8.self)
            return .failure(ProbeFailure(description: "the probe wrote no result (exit \(process.terminationStatus)): \(tail)"))
        }
        if let error = object["error"] as? String { return .failure(ProbeFailure(description: error)) }
        return .success(object)
    }

    struct ProbeFailure: Error, CustomStringConvertible {
        var description: String
    }

    private func record(_ result: Result<[String: Any], ProbeFailure>, as name: String, into figures: inout Figures) {
        let object: [String: Any]
        switch result {
        case .success(let value): object = value
        case .failure(let failure):
            log("\(name): not measured: \(failure.description)")
            figures.note(name, "not measured: \(failure.description)")
            return
        }
        func number(_ key: String, in dictionary: [String: Any]? = nil) -> Double? {
            ((dictionary ?? object)[key] as? NSNumber)?.doubleValue
        }
        figures.add("\(name).cpuPercentOfCore", number("cpuPercentOfCore"))
        figures.add("\(name).peakRSSBytes", number("peakRSSBytes"))
        figures.add("\(name).rssBytes", number("rssBytes"))
        figures.add("\(name).rssAnonymousBytes", number("rssAnonymousBytes"))
        figures.add("\(name).rssFileBytes", number("rssFileBytes"))
        figures.add("\(name).historyMinutes", number("historyMinutes"))
        figures.add("\(name).windowSeconds", number("windowSeconds"))
        figures.add("\(name).fixturesCPUPercentOfCore", number("fixturesCPUPercentOfCore"))
        figures.add("\(name).readerCPUPercentOfCore", number("readerCPUPercentOfCore"))
        for key in ["achievedRate", "written", "writtenVisible", "reached", "reachedPercent", "visibleRows", "rows"] {
            figures.add("\(name).\(key)", number(key))
        }
        if number("writtenVisible") == 0 {
            // Round-robin over 4N rows at rate/4 per broker reaches the first rows once per 4N/rate s.
            figures.note(name, "not measured: no price was written for a row on screen within the window "
                         + "(round-robin over every symbol did not reach them; use a longer --wire-seconds)")
        }
        for (prefix, key) in [("", "latencyMilliseconds"), ("idle", "idleLatencyMilliseconds")] {
            guard let summary = object[key] as? [String: Any] else { continue }
            func named(_ figure: String) -> String { prefix.isEmpty ? figure : prefix + figure.prefix(1).uppercased() + figure.dropFirst() }
            figures.add("\(name).\(named("p50Milliseconds"))", number("p50", in: summary))
            figures.add("\(name).\(named("p99Milliseconds"))", number("p99", in: summary))
            figures.add("\(name).\(named("maxMilliseconds"))", number("max", in: summary))
            figures.add("\(name).\(named("samples"))", number("count", in: summary))
        }
    }
}
