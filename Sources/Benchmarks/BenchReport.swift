import TerminalKit
import Foundation

/// The printed table and `bench-results.json`.
struct BenchReport {
    var figures: Figures
    var machine: MachineDescription
    var runs: Int
    var targets: [TargetCheck]

    init(figures: Figures, machine: MachineDescription, runs: Int) {
        self.figures = figures
        self.machine = machine
        self.runs = runs
        self.targets = BenchTargets.check(figures)
    }

    /// ours/reference for every figure both designs have, from the medians.
    var ratios: [String: Double] {
        var ratios: [String: Double] = [:]
        for name in figures.runs.keys where name.contains(".ours.") {
            let reference = name.replacingOccurrences(of: ".ours.", with: ".reference.")
            guard let ours = figures.median(name), let theirs = figures.median(reference), theirs != 0 else { continue }
            ratios[name.replacingOccurrences(of: ".ours.", with: ".oursOverReference.")] = ours / theirs
        }
        return ratios
    }

    // MARK: Table

    var table: String {
        var lines: [String] = []
        func median(_ name: String) -> Double? { figures.median(name) }
        func cell(_ value: Double?, _ format: (Double) -> String) -> String { value.map(format) ?? "—" }
        func row(_ cells: [String], _ widths: [Int]) -> String {
            zip(cells, widths).enumerated().map { index, pair in
                Format.padded(pair.0, pair.1, right: index > 0)
            }.joined(separator: "  ")
        }

        lines.append("CommonBroker benchmarks: median of \(runs) run\(runs == 1 ? "" : "s")")
        lines.append("Machine: \(machine.summary)")
        lines.append("")

        let shapes = HubShape.all.map(\.label)
        // A profiling run (`--shapes`, `--hub-scenarios`, `--rates`) measures part of the hub: rows
        // without figures are left out.
        func measured(_ prefix: String) -> Bool { figures.runs.keys.contains { $0.hasPrefix(prefix) } }
        if measured("hub.") {
            lines.append("Hub, max ingest (producer flat out ~1.5 s; quotes/s the hub took in)")
            let widths = [8, 10, 10, 8, 14, 24, 22]
            lines.append(row(["shape", "ours", "reference", "ratio", "current o/r", "not delivered o / r", "heap growth o / r"], widths))
            for shape in shapes where measured("hub.\(shape).ours.maxIngest") {
                let ours = median("hub.\(shape).ours.maxIngest.quotesPerSecond")
                let reference = median("hub.\(shape).reference.maxIngest.quotesPerSecond")
                let ratio = ours.flatMap { o in reference.map { o / $0 } }
                func current(_ design: String) -> String {
                    figures.allRuns("hub.\(shape).\(design).maxIngest.everySubscriberCurrent").map { $0 ? "yes" : "no" } ?? "—"
                }
                let notDelivered = "\(cell(median("hub.\(shape).ours.maxIngest.notDeliveredPercent"), Format.percent)) / "
                    + cell(median("hub.\(shape).reference.maxIngest.notDeliveredPercent"), Format.percent)
                let heap = "\(cell(median("hub.\(shape).ours.maxIngest.heapGrowthBytes"), Format.bytes)) / "
                    + cell(median("hub.\(shape).reference.maxIngest.heapGrowthBytes"), Format.bytes)
                lines.append(row([shape, cell(ours, Format.rate), cell(reference, Format.rate), cell(ratio, Format.ratio),
                                  "\(current("ours"))/\(current("reference"))", notDelivered, heap], widths))
            }
            lines.append("  not delivered: ours skips superseded prices by design (conflation); the reference drops the newest.")
            lines.append("")

            lines.append("Hub, latency ingest→subscriber at a steady rate (p50 / p99 / max)")
            let latencyWidths = [8, 7, 30, 30, 10, 12, 16]
            lines.append(row(["shape", "rate", "ours", "reference", "p99 r/o", "delivered o/r", "CPU/delivery o/r"], latencyWidths))
            for shape in shapes {
                for rate in [100, 1_000, 10_000] where measured("hub.\(shape).ours.latency.\(rate).") {
                    func triple(_ design: String) -> String {
                        let base = "hub.\(shape).\(design).latency.\(rate)"
                        let overloaded = figures.allRuns("\(base).ingestedEverything") == false ? " (overloaded)" : ""
                        return [median("\(base).p50Microseconds"), median("\(base).p99Microseconds"), median("\(base).maxMicroseconds")]
                            .map { cell($0, Format.microseconds) }.joined(separator: " / ") + overloaded
                    }
                    let ours = median("hub.\(shape).ours.latency.\(rate).p99Microseconds")
                    let reference = median("hub.\(shape).reference.latency.\(rate).p99Microseconds")
                    let delivered = "\(cell(median("hub.\(shape).ours.latency.\(rate).deliveredPercent"), { String(format: "%.0f%%", $0) }))/"
                        + cell(median("hub.\(shape).reference.latency.\(rate).deliveredPercent"), { String(format: "%.0f%%", $0) })
                    let cpu = ["ours", "reference"].map { design in
                        cell(median("hub.\(shape).\(design).latency.\(rate).cpuNanosecondsPerDelivery"), { String(format: "%.2f µs", $0 / 1_000) })
                    }.joined(separator: "/")
                    lines.append(row([shape, Format.rate(Double(rate)), triple("ours"), triple("reference"),
                                      cell(ours.flatMap { o in reference.map { $0 / o } }, Format.ratio), delivered, cpu], latencyWidths))
                }
            }
            lines.append("  delivered: share of (quote, subscriber) pairs that arrived; ours conflates, so under load fewer but newer.")
            lines.append("  CPU/delivery: the process's CPU time (all threads) per quote that reached a subscriber; steadier than wall time on a busy machine.")
            lines.append("")

            if shapes.contains(where: { measured("hub.\($0).ours.fanOut.") }) {
                lines.append("Hub, lockstep fan-out (one quote at a time, each to every subscriber before the next)")
                let fanOutWidths = [8, 22, 22, 16, 10]
                lines.append(row(["shape", "CPU/delivery o / r", "to last subscriber o", "… r (p50/p99)", "CPU r/o"], fanOutWidths))
                for shape in shapes where measured("hub.\(shape).ours.fanOut.") {
                    func cpu(_ design: String) -> Double? { median("hub.\(shape).\(design).fanOut.cpuNanosecondsPerDelivery") }
                    func last(_ design: String) -> String {
                        [median("hub.\(shape).\(design).fanOut.p50Microseconds"), median("hub.\(shape).\(design).fanOut.p99Microseconds")]
                            .map { cell($0, Format.microseconds) }.joined(separator: " / ")
                    }
                    let perDelivery = ["ours", "reference"].map { cell(cpu($0), { String(format: "%.2f µs", $0 / 1_000) }) }
                        .joined(separator: " / ")
                    lines.append(row([shape, perDelivery, last("ours"), last("reference"),
                                      cell(cpu("ours").flatMap { o in cpu("reference").map { $0 / o } }, Format.ratio)], fanOutWidths))
                }
                lines.append("  CPU/delivery: process CPU per (quote, subscriber) with no backlog; under callgrind, instructions are the repeatable measure.")
                lines.append("")
            }

            lines.append("Hub, slow subscriber (1 ms per wake-up, producer at 10k quotes/s for ~1 s)")
            let slowWidths = [34, 16, 16]
            lines.append(row(["", "ours", "reference"], slowWidths))
            for (label, key, format) in [
                ("behind when the producer stops", "atStop", "behind"),
                ("behind at the end", "atEnd", "behind"),
            ] where format == "behind" {
                func behind(_ design: String) -> String {
                    let quotes = median("hub.slowSubscriber.\(design).\(key).quotesBehind")
                    let ms = median("hub.slowSubscriber.\(design).\(key).millisecondsBehind")
                    return "\(cell(quotes, { String(format: "%.0f", $0) })) q, \(cell(ms, Format.milliseconds))"
                }
                lines.append(row([label, behind("ours"), behind("reference")], slowWidths))
            }
            lines.append(row(["final value shown after last quote",
                              cell(median("hub.slowSubscriber.ours.finalValueShownAfterMilliseconds"), Format.milliseconds),
                              cell(median("hub.slowSubscriber.reference.finalValueShownAfterMilliseconds"), Format.milliseconds)], slowWidths))
            lines.append(row(["heap growth",
                              cell(median("hub.slowSubscriber.ours.heapGrowthBytes"), Format.bytes),
                              cell(median("hub.slowSubscriber.reference.heapGrowthBytes"), Format.bytes)], slowWidths))
            lines.append("")

            lines.append("Hub, heap per (subscriber, symbol) subscription")
            for (label, key) in [("1,000 subscribers × 1 symbol", "1000subscribersx1symbols"), ("100 subscribers × 100 symbols", "100subscribersx100symbols")] {
                lines.append(row([label,
                                  "ours " + cell(median("hub.memory.ours.\(key).bytesPerSubscription"), Format.bytes),
                                  "reference " + cell(median("hub.memory.reference.\(key).bytesPerSubscription"), Format.bytes)], [34, 16, 20]))
            }
            lines.append("")
        }

        if median("render.1000rows.frameMilliseconds") != nil {
            lines.append("Renderer (WatchlistScreen.render + FrameDiff.runs; bytes: \(figures.notes["render.bytes"] ?? ""))")
            let widths = [10, 12, 12, 12, 20, 20, 16]
            lines.append(row(["frame", "compose", "diff", "total", "one-row bytes c/a", "repaint bytes c/a", "share c/a"], widths))
            for size in ["1000rows", "120x40"] {
                let base = "render.\(size)"
                func both(_ figure: String, _ format: @escaping (Double) -> String) -> String {
                    "\(cell(median("\(base).curses.\(figure)"), format)) / \(cell(median("\(base).\(figure)"), format))"
                }
                lines.append(row([size == "1000rows" ? "120x1004" : size,
                                  cell(median("\(base).composeMilliseconds"), Format.milliseconds),
                                  cell(median("\(base).diffMilliseconds"), Format.milliseconds),
                                  cell(median("\(base).frameMilliseconds"), Format.milliseconds),
                                  both("oneRowChangeBytes", { String(format: "%.0f", $0) }),
                                  both("fullRepaintBytes", { String(format: "%.0f", $0) }),
                                  both("oneRowChangePercentOfRepaint", { String(format: "%.2f%%", $0) })], widths))
            }
            if median("render.detail.frameMilliseconds") != nil {
                lines.append(row(["detail", cell(median("render.detail.composeMilliseconds"), Format.milliseconds),
                                  cell(median("render.detail.diffMilliseconds"), Format.milliseconds),
                                  cell(median("render.detail.frameMilliseconds"), Format.milliseconds), "—", "—", "—"], widths))
            }
            lines.append("  both frames hold the same 1,000-row watchlist; 120x40 shows its first 36 rows.")
            lines.append("  detail: the detail view at 120x40, three brokers with 30 minutes of history each in its chart.")
            lines.append("  c: what ncurses wrote to a pty of the frame's size, drawing as the app does (CursesScreen); a: the benchmark's own ANSI writer of the same runs, into a pipe.")
            lines.append("")
        }

        let formats = DecoderBenchmark.names
        if formats.contains(where: { median("decode.\($0).eventsPerSecond") != nil }) {
            lines.append("Decoders (the project's decoders on wire-reference frames, one core, \(Int(median("decode.eventsPerFrame") ?? 0)) events per frame)")
            for format in formats {
                lines.append(row([format, cell(median("decode.\(format).eventsPerSecond"), { Format.rate($0) + " events/s" }),
                                  "  " + (figures.notes["decode.\(format)"] ?? "")], [20, 18, 0]))
            }
            lines.append("")
        }

        if let row = median("history.fullRow.bytes") {
            lines.append("Price history: \(String(format: "%.0f", row)) bytes per full row (1,800 points; target ≤ 6 KB), "
                         + "\(cell(median("history.4x500.megabytes"), { String(format: "%.1f MB", $0) })) for 4 × 500 full rows; "
                         + "range \(cell(median("history.range.nanoseconds"), { String(format: "%.0f ns", $0) })) a read")
            lines.append("")
        } else if let note = figures.notes["history"] {
            lines.append("Price history: \(note)")
            lines.append("")
        }

        if let replay = median("journal.replay.milliseconds") {
            lines.append("Ledger: replay of \(Int(median("journal.replay.records") ?? 0)) fills in \(Format.milliseconds(replay)) (target ≤ 200 ms; "
                         + "\(figures.notes["journal"] ?? ""))")
            lines.append("")
        } else if let note = figures.notes["journal"] {
            lines.append("Ledger: \(note)")
            lines.append("")
        }

        if let replay = median("paper.replay.milliseconds") {
            lines.append("Paper broker: replay of \(Int(median("paper.replay.fills") ?? 0)) fills into the account in \(Format.milliseconds(replay)) "
                         + "(target ≤ 200 ms; read and decode \(cell(median("paper.replay.readMilliseconds"), Format.milliseconds)), "
                         + "apply \(cell(median("paper.replay.applyMilliseconds"), Format.milliseconds)), "
                         + "CPU \(cell(median("paper.replay.cpuMilliseconds"), Format.milliseconds)): read and decode "
                         + "\(cell(median("paper.replay.readCPUMilliseconds"), Format.milliseconds)), apply "
                         + "\(cell(median("paper.replay.applyCPUMilliseconds"), Format.milliseconds)); \(figures.notes["paper.replay"] ?? ""))")
        } else if let note = figures.notes["paper.replay"] {
            lines.append("Paper broker: replay \(note)")
        }
        if let quote = median("paper.valuation.quoteMicroseconds") {
            lines.append("Paper broker: P&L on a quote with \(Int(median("paper.valuation.positions") ?? 0)) positions in \(String(format: "%.2f µs", quote)) "
                         + "(target ≤ 1 ms; only the quoted symbol's position; all revalued: "
                         + "\(cell(median("paper.valuation.allPositionsMicroseconds"), Format.microseconds)))")
        } else if let note = figures.notes["paper.valuation"] {
            lines.append("Paper broker: P&L \(note)")
        }
        if figures.runs.keys.contains(where: { $0.hasPrefix("paper.") }) || figures.notes.keys.contains(where: { $0.hasPrefix("paper.") }) {
            lines.append("")
        }

        if figures.runs.keys.contains(where: { $0.hasPrefix("bus.throughput.") }) {
            lines.append("Bus: leader session input → follower session output through a local nats-server (JetStream KV); "
                         + "the hub mailboxes on either side are in the hub rows")
            let quotes = median("bus.throughput.quotes")
            let superseded = median("bus.throughput.supersededQuotes")
            let current = figures.allRuns("bus.throughput.followerCurrent")
            lines.append("  throughput: \(cell(median("bus.throughput.quotesPerSecond"), Format.rate)) quotes/s (target ≥ 50k): "
                         + "\(cell(quotes, { String(format: "%.0f", $0) })) quotes over \(Int(median("bus.symbols") ?? 0)) symbols, "
                         + "handed in at \(cell(median("bus.throughput.handInQuotesPerSecond"), Format.rate))/s; "
                         + "server stored \(cell(median("bus.throughput.storedByServer"), { String(format: "%.0f", $0) })) writes, "
                         + "follower received \(cell(median("bus.throughput.received"), { String(format: "%.0f", $0) })), "
                         + (superseded.map { $0 == 0 ? "none skipped" : "\(Int($0)) superseded in the store before it read them" } ?? "skipped: ?")
                         + (current == false ? "; the follower did NOT end on every symbol's last quote" : "; it ended on every symbol's last quote"))
            lines.append("  (the bucket keeps one value per key: a follower that lags gets each key's latest, as the hub conflates)")
            lines.append("  CPU per quote: \(cell(median("bus.throughput.cpuNanosecondsPerQuote"), { String(format: "%.2f µs", $0 / 1_000) })) in this process "
                         + "(leader, follower, producer), \(cell(median("bus.throughput.serverCPUNanosecondsPerQuote"), { String(format: "%.2f µs", $0 / 1_000) })) in nats-server")
            for rate in [1_000, 10_000] where median("bus.latency.\(rate).deliveredPercent") != nil {
                let base = "bus.latency.\(rate)"
                let triple = [median("\(base).p50Microseconds"), median("\(base).p99Microseconds"), median("\(base).maxMicroseconds")]
                    .map { cell($0, Format.microseconds) }.joined(separator: " / ")
                lines.append("  latency at \(Format.rate(Double(rate)))/s (p50 / p99 / max): \(triple)"
                             + (rate == 10_000 ? " (target p99 ≤ 5 ms)" : "")
                             + "; delivered \(cell(median("\(base).deliveredPercent"), { String(format: "%.1f%%", $0) })); "
                             + "CPU/quote \(cell(median("\(base).cpuNanosecondsPerQuote"), { String(format: "%.1f µs", $0 / 1_000) })) here, "
                             + "\(cell(median("\(base).serverCPUNanosecondsPerQuote"), { String(format: "%.1f µs", $0 / 1_000) })) in nats-server")
            }
            lines.append("")
        } else if let note = figures.notes["bus"] {
            lines.append("Bus: \(note)")
            lines.append("")
        }

        lines.append("Start-up: " + (median("startup.firstFrameMilliseconds").map { "first frame after \(Format.milliseconds($0))" } ?? "not measured")
                     + (figures.notes["startup"].map { " (\($0))" } ?? ""))
        lines.append("")

        lines += wireToScreenTable()

        lines.append("Targets")
        for check in targets {
            let verdict = check.passed.map { $0 ? "PASS" : "FAIL" } ?? "n/a "
            lines.append("  \(verdict)  \(Format.padded(check.name, 30))  \(Format.padded(check.target, 44))  \(check.measured)")
        }
        return lines.joined(separator: "\n")
    }

    /// Issue 18's wire-to-screen scenarios, one row each, the demo beside them.
    func wireToScreenTable() -> [String] {
        guard figures.runs.keys.contains(where: { $0.hasPrefix("wire.") }) || figures.notes["wire"] != nil else { return [] }
        func median(_ name: String) -> Double? { figures.median(name) }
        func cell(_ value: Double?, _ format: (Double) -> String) -> String { value.map(format) ?? "—" }
        var lines = ["Wire to screen: fixture writes a frame → its price on the screen, read by pyte off the release app's 120x50 pty"]
        lines.append("  " + (figures.notes["wire"] ?? ""))
        let widths = [16, 9, 30, 9, 8, 9, 10, 12]
        lines.append(zip(["scenario", "achieved", "p50 / p99 / max", "reached", "samples", "CPU", "peak RSS", "fixt./reader"], widths).enumerated()
            .map { Format.padded($1.0, $1.1, right: $0 > 0) }.joined(separator: "  "))
        var unmeasured: [String] = []
        let scenarios = [WireToScreenBenchmark.idle] + WireToScreenBenchmark.loaded
        for (label, base) in scenarios.map({ ("\($0.symbolsPerBroker)×4 @ \(Format.rate(Double($0.eventsPerSecond)))/s", $0.figure) }) + [("demo (default)", "wire.demo")] {
            if let note = figures.notes[base] { unmeasured.append("  \(label): \(note)") }
            guard median("\(base).cpuPercentOfCore") != nil else { continue }
            let latency = base == "wire.demo" ? "n/a (no write times)"
                : [median("\(base).p50Milliseconds"), median("\(base).p99Milliseconds"), median("\(base).maxMilliseconds")]
                    .map { cell($0, Format.milliseconds) }.joined(separator: " / ")
            let cells = [label, cell(median("\(base).achievedRate"), { Format.rate($0) + "/s" }), latency,
                         cell(median("\(base).reachedPercent"), { String(format: "%.1f %%", $0) }),
                         cell(median("\(base).samples"), { String(format: "%.0f", $0) }),
                         cell(median("\(base).cpuPercentOfCore"), { String(format: "%.1f %%", $0) }),
                         cell(median("\(base).peakRSSBytes"), { String(format: "%.1f MB", $0 / 1e6) }),
                         "\(cell(median("\(base).fixturesCPUPercentOfCore"), { String(format: "%.0f", $0) }))/"
                            + "\(cell(median("\(base).readerCPUPercentOfCore"), { String(format: "%.0f %%", $0) }))"]
            lines.append(zip(cells, widths).enumerated().map { Format.padded($1.0, $1.1, right: $0 > 0) }.joined(separator: "  "))
        }
        let idle = WireToScreenBenchmark.idle.figure
        if median("\(idle).idleP50Milliseconds") != nil {
            lines.append("  after an idle frame (10 events/s; no output for 33 ms before the write): "
                         + [median("\(idle).idleP50Milliseconds"), median("\(idle).idleP99Milliseconds"), median("\(idle).idleMaxMilliseconds")]
                            .map { cell($0, Format.milliseconds) }.joined(separator: " / ")
                         + " (\(cell(median("\(idle).idleSamples"), { String(format: "%.0f", $0) })) samples)")
        }
        lines.append("  N×4: N watchlist symbols on each of the four brokers (4N rows); the rate is over all four. Latency and reached count the")
        lines.append("  prices written in the window for the rows on screen (the sorted watchlist's first ~46); reached is the share of them ever")
        lines.append("  on screen: the app draws at most 30 frames/s, so a row updated faster shows each frame's newest price only (conflation).")
        lines.append("  CPU: the app's user+sys over the window, % of one core; fixt./reader: the four fixture servers' and pyte reader's, same machine.")
        lines += unmeasured
        lines.append("")
        return lines
    }

    // MARK: JSON

    func write(to path: String) throws {
        var medians: [String: Any] = [:]
        for (name, values) in figures.runs {
            medians[name] = ["median": figures.median(name).map { $0 as Any } ?? NSNull(), "runs": values]
        }
        let document: [String: Any] = [
            "machine": machine.json,
            "runs": runs,
            "figures": medians,
            "ratiosOursOverReference": ratios,
            "notes": figures.notes,
            "targets": targets.map { check -> [String: Any] in
                ["name": check.name, "target": check.target, "measured": check.measured,
                 "passed": check.passed.map { $0 as Any } ?? NSNull()]
            },
        ]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
    }
}
