import Foundation
import Interactors

/// `commonbroker print [--json]`: asks every broker once, prints, exits. No curses.
enum PrintCommand {
    /// Exit status: 0 when at least one row has a price, 1 when every broker failed.
    static func run(_ app: AppComposition, json: Bool) async -> Int32 {
        for note in app.notes { StandardError.write("commonbroker: \(note.text)") }
        let symbols = app.watchlist.symbols
        let results = await QuoteFanOut.fetchAll(symbols, from: app.quoteServices)
        let rows = SnapshotReport.rows(symbols: symbols, brokers: app.brokers, results: results)
        let output = json ? SnapshotReport.json(rows) : SnapshotReport.table(rows, now: Date())
        FileHandle.standardOutput.write(Data(output.utf8))
        await app.hub.shutdown()
        return rows.isEmpty || rows.contains { $0.quote != nil } ? 0 : 1
    }
}
