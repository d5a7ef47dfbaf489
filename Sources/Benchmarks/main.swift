import Foundation

let options = BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
let log: @Sendable (String) -> Void = { line in
    FileHandle.standardError.write(Data("· \(line)\n".utf8))
}
var figures = Figures()
if options.parts.contains(.hub) {
    var bench = HubBenchmark()
    bench.runs = options.runs
    bench.log = log
    if options.quick {
        bench.ingestWindow = .milliseconds(300)
        bench.latencyWindow = .milliseconds(300)
    }
    figures.merge(await bench.run())
}
print(figures.runs.keys.sorted().map { "\($0) \(figures.median($0) ?? .nan)" }.joined(separator: "\n"))
