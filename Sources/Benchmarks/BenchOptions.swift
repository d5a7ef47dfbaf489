/// Command-line options of the benchmark executable.
struct BenchOptions: Sendable {
    enum Part: String, Sendable, CaseIterable {
        case hub, render, decode, history, startup, journal, paper, bus, wire
    }

    var runs = 3
    var quick = false
    var parts = Set(Part.allCases)
    var output = "bench-results.json"
    var commonbroker = ".build/release/commonbroker"
    /// For profiling one case: hub shapes ("1x100") and scenarios ("ingest") to run; empty = all.
    var shapes: [String] = []
    var hubScenarios: [String] = []
    /// Steady rates (quotes/s) of the latency scenario; empty = the default 100, 1k, 10k.
    var rates: [Double] = []
    /// Hub designs to run ("ours", "shared", "shared10", "reference"); empty = all.
    var designs: [String] = []
    /// Deliveries per lockstep fan-out run; two callgrind runs that differ only here give the
    /// instructions per delivery without set-up and tear-down.
    var fanOutDeliveries: Int?
    /// Wire to screen: the measurement window per scenario (seconds), the scenarios to run (`50x1000`,
    /// `idle`, `demo`; empty = all) and the Python with websockets and pyte (default: .venv's).
    var wireSeconds: Double?
    var wireScenarios: Set<String> = []
    var python: String?
    /// Renderer: frames per run of each live case, and the cases to run (`RendererBenchmark.cases`;
    /// empty = all). Two callgrind runs that differ only in frames give the instructions per frame.
    var renderFrames: Int?
    var renderCases: Set<String> = []

    static let usage = """
        usage: Benchmarks [--runs N] [--quick] [--only hub,render,decode,history,startup,journal,paper,bus,wire] [--out PATH] [--commonbroker PATH]
                          [--shapes 1x1,1x100,...] [--hub-scenarios ingest,latency,fanout,slow,memory]
                          [--rates 100,1000,10000] [--designs ours,shared,shared10,reference] [--fanout-deliveries N]
                          [--wire-seconds S] [--wire-scenarios idle,50x100,...,500x10000,demo] [--python PATH]
                          [--render-frames N] [--render-cases 1000rows,120x40,sparklines,perSymbol,detail]
        """

    static func parse(_ arguments: [String]) -> BenchOptions {
        var options = BenchOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--runs": options.runs = max(1, rest.popFirst().flatMap { Int($0) } ?? options.runs)
            case "--quick": options.quick = true
            case "--only":
                let names = (rest.popFirst() ?? "").split(separator: ",").map(String.init)
                options.parts = Set(names.compactMap(Part.init(rawValue:)))
            case "--out": options.output = rest.popFirst() ?? options.output
            case "--shapes": options.shapes = (rest.popFirst() ?? "").split(separator: ",").map(String.init)
            case "--hub-scenarios": options.hubScenarios = (rest.popFirst() ?? "").split(separator: ",").map(String.init)
            case "--rates": options.rates = (rest.popFirst() ?? "").split(separator: ",").compactMap { Double($0) }
            case "--designs": options.designs = (rest.popFirst() ?? "").split(separator: ",").map(String.init)
            case "--fanout-deliveries": options.fanOutDeliveries = rest.popFirst().flatMap { Int($0) }
            case "--wire-seconds": options.wireSeconds = rest.popFirst().flatMap { Double($0) }
            case "--wire-scenarios": options.wireScenarios = Set((rest.popFirst() ?? "").split(separator: ",").map(String.init))
            case "--python": options.python = rest.popFirst()
            case "--render-frames": options.renderFrames = rest.popFirst().flatMap { Int($0) }.map { max(1, $0) }
            case "--render-cases": options.renderCases = Set((rest.popFirst() ?? "").split(separator: ",").map(String.init))
            case "--commonbroker": options.commonbroker = rest.popFirst() ?? options.commonbroker
            default:
                print(usage)
                exit(64)
            }
        }
        return options
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
