/// The targets of issues 6, 15, 16 and 18, judged on the medians (and, for "every subscriber current", on every run).
struct TargetCheck: Sendable {
    var name: String
    var target: String
    var measured: String
    /// nil: not measured in this run.
    var passed: Bool?
}

enum BenchTargets {
    static func check(_ figures: Figures) -> [TargetCheck] {
        var checks: [TargetCheck] = []
        func ingest(_ shape: String) -> (ours: Double?, reference: Double?) {
            (figures.median("hub.\(shape).ours.maxIngest.quotesPerSecond"),
             figures.median("hub.\(shape).reference.maxIngest.quotesPerSecond"))
        }
        for shape in ["1x100", "1x1000"] {
            let (ours, reference) = ingest(shape)
            let current = figures.allRuns("hub.\(shape).ours.maxIngest.everySubscriberCurrent")
            let ratio = ours.flatMap { ours in reference.map { ours / $0 } }
            checks.append(TargetCheck(
                name: "max ingest \(shape)", target: "≥ 10× reference, every subscriber current",
                measured: ratio.map { "\(Format.ratio($0)), current: \(current.map { $0 ? "yes" : "NO" } ?? "?")" } ?? "—",
                passed: ratio.map { $0 >= 10 && current == true }))
        }
        // Each design that was measured gets its own line: per subscriber (ours), and with shared wake-ups
        // (every subscriber a member of one group; 10 groups for the shapes of 100 and more).
        let latencyDesigns: [(design: String, label: String)] = [("ours", ""), ("shared", " (shared wake-up)"), ("shared10", " (10 shared groups)")]
        for shape in HubShape.all {
            for (design, label) in latencyDesigns where HubDesign(rawValue: design)?.applies(to: shape) == true {
                let p99 = figures.median("hub.\(shape.label).\(design).latency.10000.p99Microseconds")
                // A design left out of the run is not a miss.
                if p99 == nil && design != "ours" { continue }
                checks.append(TargetCheck(
                    name: "p99 at 10k/s \(shape.label)\(label)", target: "≤ 100 µs", measured: p99.map { Format.microseconds($0) } ?? "—",
                    passed: p99.map { $0 <= 100 }))
            }
        }
        let currentEverywhere = figures.runs.keys
            .filter { ($0.contains(".ours.") || $0.contains(".shared.") || $0.contains(".shared10.")) && $0.hasSuffix("everySubscriberCurrent") }
            .allSatisfy { figures.allRuns($0) == true }
        // The worst of the two designs of ours that were measured.
        let behind = ["ours", "shared"].compactMap { figures.runs["hub.slowSubscriber.\($0).atEnd.quotesBehind"]?.max() }.max()
        let shownAfter = ["ours", "shared"].compactMap { figures.runs["hub.slowSubscriber.\($0).finalValueShownAfterMilliseconds"]?.max() }.max()
        checks.append(TargetCheck(
            name: "0 stale", target: "every subscriber ends on the last quote; slow one within one delivery (≤ 2 ms)",
            measured: "all current: \(currentEverywhere ? "yes" : "NO"); slow: \(behind.map { "\(Int($0)) behind" } ?? "—"), "
                + "final shown \(shownAfter.map { Format.milliseconds($0) } ?? "—") after the last quote",
            passed: behind.map { $0 == 0 && currentEverywhere && (shownAfter ?? .infinity) <= 2 }))
        // Both shapes: one symbol per subscriber is where a subscriber's fixed cost shows.
        for (label, key) in [("100x100", "100subscribersx100symbols"), ("1000x1", "1000subscribersx1symbols")] {
            for (design, designLabel) in [("ours", ""), ("shared", " (shared)")] {
                let perSubscription = figures.median("hub.memory.\(design).\(key).bytesPerSubscription")
                if perSubscription == nil && design != "ours" { continue }
                checks.append(TargetCheck(
                    name: "memory/subscription \(label)\(designLabel)", target: "≤ 200 bytes per (subscriber, symbol)",
                    measured: perSubscription.map { "\(Int($0.rounded())) B" } ?? "—",
                    passed: perSubscription.map { $0 <= 200 }))
            }
        }
        let frame = figures.median("render.1000rows.frameMilliseconds")
        checks.append(TargetCheck(
            name: "1,000-row frame", target: "compose + diff ≤ 1 ms", measured: frame.map { Format.milliseconds($0) } ?? "—",
            passed: frame.map { $0 <= 1 }))
        // Issue 17: sparklines on every row, and the cross-broker view's 1,000 symbol rows.
        for (label, key) in [("sparklines", "sparklines"), ("per symbol", "perSymbol")] {
            let frame = figures.median("render.1000rows.\(key).frameMilliseconds")
            checks.append(TargetCheck(
                name: "1,000-row frame, \(label)", target: "compose + diff ≤ 1 ms", measured: frame.map { Format.milliseconds($0) } ?? "—",
                passed: frame.map { $0 <= 1 }))
        }
        for size in ["120x40", "1000rows"] {
            // The real output path when it could be measured (ncurses in a pty), else the ANSI writer.
            let share = figures.median("render.\(size).curses.oneRowChangePercentOfRepaint")
                ?? figures.median("render.\(size).oneRowChangePercentOfRepaint")
            checks.append(TargetCheck(
                name: "one-row change bytes (\(size))", target: "≤ 5 % of a full repaint",
                measured: share.map { String(format: "%.2f %%", $0) } ?? "—", passed: share.map { $0 <= 5 }))
        }
        for format in DecoderBenchmark.names {
            let rate = figures.median("decode.\(format).eventsPerSecond")
            checks.append(TargetCheck(
                name: "decode \(format)", target: "≥ 500k events/s", measured: rate.map { Format.rate($0) + "/s" } ?? "—",
                passed: rate.map { $0 >= 500_000 }))
        }
        // Issue 18: RSS ≤ 50 MB at 4 × 500 symbols with full histories leaves about 6 KB a row.
        let historyRow = figures.median("history.fullRow.bytes")
        checks.append(TargetCheck(
            name: "history per full row", target: "≤ 6 KB (1,800 points)",
            measured: historyRow.map { "\(Int($0.rounded())) B" } ?? figures.notes["history"] ?? "—",
            passed: historyRow.map { $0 <= 6 * 1_024 }))
        let replay = figures.median("journal.replay.milliseconds")
        checks.append(TargetCheck(
            name: "ledger replay 100k fills", target: "≤ 200 ms", measured: replay.map { Format.milliseconds($0) } ?? "—",
            passed: replay.map { $0 <= 200 }))
        let paperReplay = figures.median("paper.replay.milliseconds")
        checks.append(TargetCheck(
            name: "paper replay 100k fills", target: "≤ 200 ms into the account", measured: paperReplay.map { Format.milliseconds($0) } ?? "—",
            passed: paperReplay.map { $0 <= 200 }))
        let quotePnL = figures.median("paper.valuation.quoteMicroseconds")
        checks.append(TargetCheck(
            name: "P&L on a quote, 1k positions", target: "≤ 1 ms", measured: quotePnL.map { String(format: "%.2f µs", $0) } ?? "—",
            passed: quotePnL.map { $0 <= 1_000 }))
        // The bus (issue 16), on the medians. The bucket keeps one value per key, so a follower that lags
        // skips superseded quotes (conflation, as in the hub); it must still end on every last quote.
        let busRate = figures.median("bus.throughput.quotesPerSecond")
        let busCurrent = figures.allRuns("bus.throughput.followerCurrent")
        checks.append(TargetCheck(
            name: "bus leader → follower", target: "≥ 50k quotes/s, follower ends on every last quote",
            measured: busRate.map { "\(Format.rate($0)) quotes/s, current: \(busCurrent == true ? "yes" : "NO")" }
                ?? (busCurrent == false ? "the follower never had every last quote" : figures.notes["bus"] ?? "—"),
            passed: busRate.map { $0 >= 50_000 && busCurrent == true } ?? (busCurrent == false ? false : nil)))
        let busP99 = figures.median("bus.latency.10000.p99Microseconds")
        checks.append(TargetCheck(
            name: "bus p99 at 10k/s", target: "≤ 5 ms leader input → follower output",
            measured: busP99.map { Format.microseconds($0) } ?? "—", passed: busP99.map { $0 <= 5_000 }))
        let startup = figures.median("startup.firstFrameMilliseconds")
        checks.append(TargetCheck(
            name: "first frame", target: "≤ 150 ms", measured: startup.map { Format.milliseconds($0) } ?? "not measured",
            passed: startup.map { $0 <= 150 }))
        checks += wireToScreen(figures)
        return checks
    }

    /// Issue 18: wire to screen, read by pyte off the app's pty (WireToScreenBenchmark).
    static func wireToScreen(_ figures: Figures) -> [TargetCheck] {
        var checks: [TargetCheck] = []
        func notMeasured(_ name: String) -> String { figures.notes[name] ?? figures.notes["wire"].flatMap { $0.hasPrefix("not measured") ? $0 : nil } ?? "—" }
        let idle = WireToScreenBenchmark.idle.figure
        let idleP50 = figures.median("\(idle).idleP50Milliseconds")
        let idleP99 = figures.median("\(idle).idleP99Milliseconds")
        checks.append(TargetCheck(
            name: "wire: change after an idle frame", target: "on screen ≤ 5 ms, p99 ≤ 10 ms (10 events/s)",
            measured: idleP50.map { p50 in "\(Format.milliseconds(p50)), p99 \(idleP99.map(Format.milliseconds) ?? "—")" } ?? notMeasured(idle),
            passed: idleP50.flatMap { p50 in idleP99.map { p50 <= 5 && $0 <= 10 } }))
        for scenario in [WireToScreenBenchmark.idle] + WireToScreenBenchmark.loaded {
            let p50 = figures.median("\(scenario.figure).p50Milliseconds")
            let p99 = figures.median("\(scenario.figure).p99Milliseconds")
            let reached = figures.median("\(scenario.figure).reachedPercent")
            checks.append(TargetCheck(
                name: "wire \(scenario.symbolsPerBroker)×4 at \(Format.rate(Double(scenario.eventsPerSecond)))/s", target: "p50 ≤ 20 ms, p99 ≤ 40 ms",
                measured: p50.map { p50 in
                    "\(Format.milliseconds(p50)) / \(p99.map(Format.milliseconds) ?? "—"), reached \(reached.map { String(format: "%.0f %%", $0) } ?? "—")"
                } ?? notMeasured(scenario.figure),
                passed: p50.flatMap { p50 in p99.map { p50 <= 20 && $0 <= 40 } }))
        }
        for (rate, limit) in [(1_000, 1.0), (10_000, 8.0)] {
            let shares = WireToScreenBenchmark.symbolCounts.compactMap { symbols -> (Int, Double)? in
                figures.median("\(WireToScreenBenchmark.Scenario(symbolsPerBroker: symbols, eventsPerSecond: rate).figure).cpuPercentOfCore").map { (symbols, $0) }
            }
            checks.append(TargetCheck(
                name: "wire CPU at \(Format.rate(Double(rate))) events/s", target: "≤ \(Int(limit)) % of a core (user+sys)",
                measured: shares.isEmpty ? notMeasured(WireToScreenBenchmark.Scenario(symbolsPerBroker: 50, eventsPerSecond: rate).figure)
                    : shares.map { "\($0.0)×4: \(String(format: "%.1f %%", $0.1))" }.joined(separator: ", "),
                passed: shares.isEmpty ? nil : shares.allSatisfy { $0.1 <= limit }))
        }
        let peaks = WireToScreenBenchmark.rates.compactMap { rate in
            figures.median("\(WireToScreenBenchmark.Scenario(symbolsPerBroker: 500, eventsPerSecond: rate).figure).peakRSSBytes")
        }
        // MB: 10^6 bytes, the stricter reading.
        checks.append(TargetCheck(
            name: "wire RSS at 4 × 500 symbols, histories full", target: "peak ≤ 50 MB",
            measured: peaks.max().map { String(format: "%.1f MB peak", $0 / 1e6) } ?? notMeasured(WireToScreenBenchmark.Scenario(symbolsPerBroker: 500, eventsPerSecond: 100).figure),
            passed: peaks.max().map { $0 <= 50e6 }))
        return checks
    }
}
