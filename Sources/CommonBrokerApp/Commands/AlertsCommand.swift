import Domain
import Foundation
import Interactors
import Stores

/// `commonbroker alerts check|list [--json]`: the saved price alerts without a screen, for scripts and
/// cron. `check` asks every broker once for the symbols whose alerts can still fire, evaluates them
/// with the same `AlertEvaluator` as the app (fired alerts are saved as fired, so neither the app nor
/// the next check fires them again), and prints each firing.
public enum AlertsCommand {
    public enum Action: Sendable, Equatable {
        case check, list
    }

    /// Exit status of `check` when at least one alert fired (0: none fired; 1: an error).
    static let firedStatus: Int32 = 3

    static func run(_ app: AppComposition, _ action: Action, json: Bool) async -> Int32 {
        for note in app.notes { StandardError.write("commonbroker: \(note.text)") }
        switch action {
        case .list:
            let report = AlertsReport(brokers: app.brokers)
            let alerts = app.watchlist.book.alerts.alerts
            FileHandle.standardOutput.write(Data((json ? report.json(alerts) : report.table(alerts)).utf8))
            await app.hub.shutdown()
            return 0
        case .check:
            let status = await check(app, json: json)
            await app.hub.shutdown()
            return status
        }
    }

    private static func check(_ app: AppComposition, json: Bool) async -> Int32 {
        let book = app.watchlist.book.alerts
        let symbols = book.symbolsThatCanFire.sorted()
        guard !symbols.isEmpty else {
            if !json { FileHandle.standardOutput.write(Data("No alerts that can fire; ! on a row in the app sets one\n".utf8)) }
            return 0
        }
        let results = await QuoteFanOut.fetchAll(symbols, from: app.quoteServices)
        var quotes: [QuoteKey: CommonQuote] = [:]
        var failures: [String] = []
        for result in results {
            for (symbol, answer) in result.results {
                switch answer {
                case .success(let quote): quotes[QuoteKey(brandID: result.branding.id, symbol: symbol)] = quote
                case .failure(let error): failures.append("\(result.branding.name) \(symbol): \(error.description)")
                }
            }
        }
        for failure in failures.sorted() { StandardError.write("commonbroker: \(failure)") }
        let now = Date()
        let evaluation = AlertEvaluator.evaluate(
            quotes, in: book, now: now, staleAfter: TimeInterval(app.config.staleAfterSeconds))
        if !evaluation.changed.isEmpty {
            do throws(WatchlistStoreError) {
                _ = try app.watchlist.edit { (saved: inout WatchlistBook) throws(WatchlistBook.EditError) in
                    saved.alerts.adoptStates(of: evaluation.changed)
                }
            } catch {
                StandardError.write("commonbroker: the alerts that fired were not saved: \(error.description)")
                return 1
            }
        }
        let report = AlertsReport(brokers: app.brokers)
        let output = json
            ? evaluation.firings.map { report.jsonLine($0) + "\n" }.joined()
            : evaluation.firings.map { report.line($0) + "\n" }.joined()
        FileHandle.standardOutput.write(Data(output.utf8))
        if !evaluation.firings.isEmpty { return firedStatus }
        // Nothing fired because nothing answered is an error, not an all-clear.
        return quotes.isEmpty ? 1 : 0
    }
}
