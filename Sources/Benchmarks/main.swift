import Foundation
#if canImport(Glibc)
import Glibc
#endif

// `make bench`: our hub against the reference design it replaced, the renderer, the decoders, the
// ledger's replay, the paper broker's replay and P&L, the bus from a leader to a follower through
// nats-server, start-up, and wire to screen (the release app fed by fixture brokers, its screen read by
// pyte). Prints the table and writes every figure to bench-results.json.
// The renderer benchmark runs this executable in a pseudo-terminal to count what ncurses writes.
if CommandLine.arguments.dropFirst().first == CursesBytesBenchmark.childFlag {
    CursesBytesBenchmark.runChild(Array(CommandLine.arguments.dropFirst(2)))
}
let options = BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
let log: @Sendable (String) -> Void = { line in
    FileHandle.standardError.write(Data("· \(line)\n".utf8))
}
let machine = MachineDescription.current()
var figures = Figures()

if options.parts.contains(.hub) {
    var bench = HubBenchmark()
    bench.runs = options.runs
    bench.log = log
    if !options.shapes.isEmpty { bench.shapes = HubShape.all.filter { options.shapes.contains($0.label) } }
    if !options.hubScenarios.isEmpty {
        bench.scenarios = Set(options.hubScenarios.compactMap(HubBenchmark.Scenario.init(rawValue:)))
    }
    if !options.rates.isEmpty { bench.rates = options.rates }
    if let deliveries = options.fanOutDeliveries { bench.fanOutDeliveries = deliveries }
    if !options.designs.isEmpty { bench.designs = HubDesign.allCases.filter { options.designs.contains($0.rawValue) } }
    if options.quick {
        bench.ingestWindow = .milliseconds(300)
        bench.latencyWindow = .milliseconds(300)
    }
    let hubBench = bench
    figures.merge(runBlocking { await hubBench.run() })
}
if options.parts.contains(.render) {
    var bench = RendererBenchmark()
    bench.runs = options.runs
    bench.log = log
    if options.quick {
        bench.window = .milliseconds(150)
        bench.frames = 100
    }
    if let frames = options.renderFrames { bench.frames = frames }
    bench.only = options.renderCases
    figures.merge(bench.run())
}
if options.parts.contains(.decode) {
    var bench = DecoderBenchmark()
    bench.runs = options.runs
    bench.log = log
    if options.quick { bench.window = .milliseconds(150) }
    figures.merge(bench.run())
}
if options.parts.contains(.history) {
    var bench = PriceHistoryBenchmark()
    bench.runs = options.runs
    bench.log = log
    figures.merge(bench.run())
}
// The replays read tens of megabytes into fresh memory: give back what the hub scenarios left in the
// allocator first, so they start from the heap a starting app has (without it, after the hub rows,
// the same replay took about 1.5 times as long, in decoding and applying alike).
if options.parts.contains(.journal) || options.parts.contains(.paper) {
    #if canImport(Glibc)
    // glibc's malloc_trim, which the Glibc module does not export.
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
        _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
    }
    #endif
}
if options.parts.contains(.journal) {
    var bench = JournalBenchmark()
    bench.runs = options.runs
    bench.log = log
    figures.merge(bench.run())
}
if options.parts.contains(.paper) {
    var bench = PaperBenchmark()
    bench.runs = options.runs
    bench.log = log
    if options.quick { bench.quotes = 10_000 }
    figures.merge(bench.run())
}
if options.parts.contains(.bus) {
    var bench = BusBenchmark()
    bench.runs = options.runs
    bench.log = log
    if options.quick {
        bench.quotes = 20_000
        bench.latencyWindow = .seconds(1)
    }
    let busBench = bench
    figures.merge(runBlocking { await busBench.run() })
}
if options.parts.contains(.startup) {
    var bench = StartupBenchmark(binary: options.commonbroker)
    bench.runs = options.runs
    bench.log = log
    figures.merge(bench.run())
}
if options.parts.contains(.wire) {
    let root = WireToScreenBenchmark.repositoryRoot
    var bench = WireToScreenBenchmark(
        binary: options.commonbroker,
        python: options.python ?? ProcessInfo.processInfo.environment["COMMONBROKER_PYTHON"]
            ?? root.appendingPathComponent(".venv/bin/python3").path,
        script: root.appendingPathComponent("Tests/Fixtures/bench/wire_to_screen.py").path)
    bench.log = log
    bench.only = options.wireScenarios
    if options.quick {
        bench.seconds = 3
        bench.warmup = 1
    }
    if let seconds = options.wireSeconds { bench.seconds = seconds }
    figures.merge(bench.run())
}

let report = BenchReport(figures: figures, machine: machine, runs: options.runs)
print(report.table)
do {
    try report.write(to: options.output)
    print("\nWrote \(options.output)")
} catch {
    FileHandle.standardError.write(Data("Benchmarks: cannot write \(options.output): \(error)\n".utf8))
    exit(1)
}
