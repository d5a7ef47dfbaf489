import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing

/// `commonbroker print --follow` as a script runs it: lines are read while it still runs (so each is
/// written out as it comes, not held in a buffer until exit), each is one JSON object with the columns of
/// `print --json`, and SIGINT or SIGTERM ends it with status 0 and nothing on stderr.
@Suite struct PrintFollowEndToEndTests {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("cb-follow-\(UUID().uuidString)")

    static let columns: Set<String> = [
        "id", "symbol", "brand", "brandName", "last", "change", "changePercent", "bid", "ask", "spread", "volume", "previousClose",
        "timestamp", "error",
    ]

    func start() throws -> LoggedProcess {
        // No config and no saved watchlist of the user's: the state and config directories are new.
        let environment = ["HOME": work.path, "XDG_STATE_HOME": work.path, "XDG_CONFIG_HOME": work.path]
        return try LoggedProcess(
            CommonBrokerBinary.path, ["print", "--follow", "--demo", "--symbols", "AAPL,MSFT"], environment: environment, logs: work, name: "follow")
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func writesJSONLinesUntilSignalledThenExitsZero(signal: Int32) async throws {
        let follow = try start()
        let lines = try await Self.poll { follow.exited() == nil ? (follow.outputLines().count >= 3 ? follow.outputLines() : nil) : [] }
        let read = try #require(lines, "fewer than 3 lines while running:\n\(follow.outputLines())\n\(follow.errorLines())")
        try #require(read.count >= 3, "it exited (\(String(describing: follow.exited()))) before 3 lines:\n\(follow.errorLines())")
        for line in read.prefix(3) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
            #expect(Set(object.keys) == Self.columns, "\(line)")
            #expect(["AAPL", "MSFT"].contains(object["symbol"] as? String), "\(line)")
            #expect((object["brand"] as? String)?.hasPrefix("demo-") == true, "\(line)")
        }
        #expect(read.prefix(3).contains { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).flatMap { $0["last"] as? Double }.map { $0 > 0 } == true
        }, "no price among \(read.prefix(3))")

        follow.signal(signal)
        let status = try await Self.poll { follow.exited() }
        #expect(status == 0, "exit status \(String(describing: status)) after signal \(signal):\n\(follow.errorLines().joined(separator: "\n"))")
        #expect(follow.errorLines().isEmpty, "\(follow.errorLines())")
        // Every line written, up to the last, is whole JSON: nothing cut off by the stop.
        for line in follow.outputLines() {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "\(line)")
        }
        try? FileManager.default.removeItem(at: work)
    }

    /// `probe`'s first answer, asked up to 1,200 times 50 ms apart (times `TestTime.scale`); nil if it never answers. Counted
    /// rather than against a deadline: in a loaded parallel run one sleep can overrun a 15 s deadline
    /// (this test once woke after it with the lines long written), and a probe after every wake sees them.
    static func poll<Value>(_ probe: () -> Value?) async throws -> Value? {
        for _ in 0..<(1_200 * TestTime.scale) {
            if let value = probe() { return value }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }
}
