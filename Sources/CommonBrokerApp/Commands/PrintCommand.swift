import Domain
import Foundation
import Interactors

/// `commonbroker print [--json|--csv|--follow]`: asks every broker once, prints, exits; or, with
/// `--follow`, prints every quote as it arrives until SIGINT or SIGTERM. No curses.
enum PrintCommand {
    /// Exit status: 0 when at least one row has a price, 1 when every broker failed; `--follow` exits 0
    /// when it is stopped.
    static func run(_ app: AppComposition, output: QuotesOutput) async -> Int32 {
        for note in app.notes { StandardError.write("commonbroker: \(note.text)") }
        if output == .follow { return await follow(app) }
        let symbols = app.watchlist.symbols
        let results = await QuoteFanOut.fetchAll(symbols, from: app.quoteServices)
        let rows = SnapshotReport.rows(symbols: symbols, brokers: app.brokers, results: results)
        let now = Date()
        let text = switch output {
        case .json: SnapshotReport.json(rows)
        case .csv: SnapshotReport.csv(rows)
        case .table, .follow: SnapshotReport.table(rows, now: now, market: NYSECalendar.standard.state(at: now))
        }
        FileHandle.standardOutput.write(Data(text.utf8))
        await app.hub.shutdown()
        return rows.isEmpty || rows.contains { $0.quote != nil } ? 0 : 1
    }

    /// One JSON object a line (`SnapshotReport.line`) for every quote and failure the hub delivers, until
    /// SIGINT or SIGTERM; then the brokers' connections close and it exits 0. `FileHandle` writes straight
    /// to the descriptor, with no buffer of its own, so each line reaches a pipe (`| jq`) as it is written.
    /// A reader that goes away ends the process with SIGPIPE on the next line, as for any filter.
    private static func follow(_ app: AppComposition) async -> Int32 {
        // Before subscribing, so a signal while the brokers connect also ends it cleanly.
        let stop = SignalStop()
        let subscription = await app.hub.subscribe(symbols: Set(app.watchlist.symbols))
        let brokerNames = Dictionary(app.brokers.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let writer = Task {
            for await update in subscription.updates {
                let lines = SnapshotReport.rows(from: update, brokerNames: brokerNames).map(SnapshotReport.line)
                guard !lines.isEmpty else { continue }
                FileHandle.standardOutput.write(Data(lines.joined().utf8))
            }
        }
        await stop.wait()
        writer.cancel()
        await subscription.cancel()
        await writer.value
        await app.hub.shutdown()
        await app.bus?.close()
        return 0
    }
}
