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
            // o: ours, one task per subscriber; s: shared, every subscriber a member of one group; r: the
            // reference. The 10-group variant gets a line of its own under its shape.
            let designs = ["ours", "shared", "reference"]
            func perDesign(_ format: (String) -> String) -> String { designs.map(format).joined(separator: " / ") }
            lines.append("Hub, max ingest (producer flat out ~1.5 s; quotes/s the hub took in)")
            let widths = [8, 10, 10, 10, 8, 8, 14, 30, 36]
            lines.append(row(["shape", "ours", "shared", "reference", "o/r", "s/r", "current o/s/r", "not delivered o / s / r",
                              "heap growth o / s / r"], widths))
            for shape in shapes where ["ours", "shared"].contains(where: { measured("hub.\(shape).\($0).maxIngest") }) {
                func rate(_ design: String) -> Double? { median("hub.\(shape).\(design).maxIngest.quotesPerSecond") }
                func over(_ design: String) -> Double? { rate(design).flatMap { o in rate("reference").map { o / $0 } } }
                func current(_ design: String) -> String {
                    figures.allRuns("hub.\(shape).\(design).maxIngest.everySubscriberCurrent").map { $0 ? "yes" : "no" } ?? "—"
                }
                lines.append(row([
                    shape, cell(rate("ours"), Format.rate), cell(rate("shared"), Format.rate), cell(rate("reference"), Format.rate),
                    cell(over("ours"), Format.ratio), cell(over("shared"), Format.ratio), designs.map(current).joined(separator: "/"),
                    perDesign { cell(median("hub.\(shape).\($0).maxIngest.notDeliveredPercent"), Format.percent) },
                    perDesign { cell(median("hub.\(shape).\($0).maxIngest.heapGrowthBytes"), Format.bytes) },
                ], widths))
            }
            lines.append("  not delivered: ours and shared skip superseded prices by design (conflation); the reference drops the newest.")
            lines.append("")

            lines.append("Hub, latency ingest→subscriber at a steady rate (p50 / p99 / max)")
            let latencyWidths = [8, 7, 28, 28, 30, 8, 14, 26]
            lines.append(row(["shape", "rate", "ours", "shared", "reference", "p99 r/s", "delivered o/s/r", "CPU/delivery o / s / r"],
                             latencyWidths))
            func microseconds(_ value: Double?) -> String { cell(value, { String(format: "%.2f µs", $0 / 1_000) }) }
            for shape in shapes {
                for rate in [100, 1_000, 10_000] where ["ours", "shared"].contains(where: { measured("hub.\(shape).\($0).latency.\(rate).") }) {
                    func triple(_ design: String) -> String {
                        let base = "hub.\(shape).\(design).latency.\(rate)"
                        let overloaded = figures.allRuns("\(base).ingestedEverything") == false ? " (overloaded)" : ""
                        return [median("\(base).p50Microseconds"), median("\(base).p99Microseconds"), median("\(base).maxMicroseconds")]
                            .map { cell($0, Format.microseconds) }.joined(separator: " / ") + overloaded
                    }
                    func p99(_ design: String) -> Double? { median("hub.\(shape).\(design).latency.\(rate).p99Microseconds") }
                    func delivered(_ design: String) -> String {
                        cell(median("hub.\(shape).\(design).latency.\(rate).deliveredPercent"), { String(format: "%.0f%%", $0) })
                    }
                    func cpu(_ design: String) -> String {
                        microseconds(median("hub.\(shape).\(design).latency.\(rate).cpuNanosecondsPerDelivery"))
                    }
                    lines.append(row([shape, Format.rate(Double(rate)), triple("ours"), triple("shared"), triple("reference"),
                                      cell(p99("shared").flatMap { s in p99("reference").map { $0 / s } }, Format.ratio),
                                      designs.map(delivered).joined(separator: "/"), perDesign(cpu)], latencyWidths))
                    if measured("hub.\(shape).shared10.latency.\(rate).") {
                        lines.append(row(["", "", "10 groups:", triple("shared10"), "", "", delivered("shared10"), cpu("shared10")],
                                         latencyWidths))
                    }
                }
            }
            lines.append("  delivered: share of (quote, subscriber) pairs that arrived; ours and shared conflate, so under load fewer but newer.")
            lines.append("  CPU/delivery: the process's CPU time (all threads) per quote that reached a subscriber; steadier than wall time on a busy machine.")
            lines.append("  shared: every subscriber a member of one MarketFeedGroup (one wake-up per batch); 10 groups: the same subscribers in 10 groups, 10 tasks.")
            lines.append("")

            if shapes.contains(where: { shape in ["ours", "shared"].contains { measured("hub.\(shape).\($0).fanOut.") } }) {
                lines.append("Hub, lockstep fan-out (one quote at a time, each to every subscriber before the next)")
                let fanOutWidths = [8, 30, 18, 18, 18, 10]
                lines.append(row(["shape", "CPU/delivery o / s / r", "to last sub. o", "… s (p50/p99)", "… r (p50/p99)", "CPU r/s"],
                                 fanOutWidths))
                for shape in shapes where ["ours", "shared"].contains(where: { measured("hub.\(shape).\($0).fanOut.") }) {
                    func cpu(_ design: String) -> Double? { median("hub.\(shape).\(design).fanOut.cpuNanosecondsPerDelivery") }
                    func last(_ design: String) -> String {
                        [median("hub.\(shape).\(design).fanOut.p50Microseconds"), median("hub.\(shape).\(design).fanOut.p99Microseconds")]
                            .map { cell($0, Format.microseconds) }.joined(separator: " / ")
                    }
                    lines.append(row([shape, perDesign { microseconds(cpu($0)) }, last("ours"), last("shared"), last("reference"),
                                      cell(cpu("shared").flatMap { s in cpu("reference").map { $0 / s } }, Format.ratio)], fanOutWidths))
                    if measured("hub.\(shape).shared10.fanOut.") {
                        lines.append(row(["", "10 groups: " + microseconds(cpu("shared10")), "", last("shared10"), "", ""], fanOutWidths))
                    }
                }
                lines.append("  CPU/delivery: process CPU per (quote, subscriber) with no backlog; under callgrind, instructions are the repeatable measure.")
                lines.append("")
            }

            lines.append("Hub, slow subscriber (1 ms per wake-up, producer at 10k quotes/s for ~1 s)")
            let slowWidths = [34, 16, 16, 16]
            lines.append(row(["", "ours", "shared", "reference"], slowWidths))
            for (label, key) in [("behind when the producer stops", "atStop"), ("behind at the end", "atEnd")] {
                func behind(_ design: String) -> String {
                    let quotes = median("hub.slowSubscriber.\(design).\(key).quotesBehind")
                    let ms = median("hub.slowSubscriber.\(design).\(key).millisecondsBehind")
                    return "\(cell(quotes, { String(format: "%.0f", $0) })) q, \(cell(ms, Format.milliseconds))"
                }
                lines.append(row([label] + designs.map(behind), slowWidths))
            }
            lines.append(row(["final value shown after last quote"]
                             + designs.map { cell(median("hub.slowSubscriber.\($0).finalValueShownAfterMilliseconds"), Format.milliseconds) },
                             slowWidths))
            lines.append(row(["heap growth"] + designs.map { cell(median("hub.slowSubscriber.\($0).heapGrowthBytes"), Format.bytes) },
                             slowWidths))
            lines.append("")

            lines.append("Hub, heap per (subscriber, symbol) subscription")
            for (label, key) in [("1,000 subscribers × 1 symbol", "1000subscribersx1symbols"), ("100 subscribers × 100 symbols", "100subscribersx100symbols")] {
                lines.append(row([label] + designs.map { "\($0) " + cell(median("hub.memory.\($0).\(key).bytesPerSubscription"), Format.bytes) },
                                 [34, 14, 16, 20]))
            }
            lines.append("  shared: members of one group, each with a handler closure that holds one reference.")
            lines.append("")
        }

        if median("render.1000rows.frameMilliseconds") != nil {
            lines.append("Renderer (WatchlistScreen.render + FrameDiff.spans; bytes: \(figures.notes["render.bytes"] ?? ""))")
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
