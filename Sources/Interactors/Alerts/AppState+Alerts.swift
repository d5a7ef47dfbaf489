import Domain
import Foundation
import Stores

extension AppState {
    public static let alertLogLimit = 200

    /// Evaluates the alerts against a batch of quotes: a firing rings the bell (unless off), highlights
    /// its row, goes in the alert log and the message line, and asks for a desktop notification when
    /// they are on; every alert whose standing moved is saved.
    mutating func evaluateAlerts(in update: MarketUpdate, at now: Date) -> [AppEffect] {
        guard !alerts.isEmpty, !update.quotes.isEmpty else { return [] }
        let evaluation = AlertEvaluator.evaluate(update.quotes, in: alerts, now: now, staleAfter: settings.staleAfter)
        guard !evaluation.changed.isEmpty else { return [] }
        alerts = evaluation.book
        var effects: [AppEffect] = [.persistAlerts(.record(evaluation.changed))]
        guard !evaluation.firings.isEmpty else { return effects }
        for firing in evaluation.firings {
            alertLog.append(firing)
            alertedRows.insert(QuoteKey(brandID: firing.brokerID, symbol: firing.symbol))
            if settings.alertDesktop {
                effects.append(.notify(DesktopNotification(
                    title: "\(firing.symbol) \(firing.alert.condition.summary)",
                    body: "\(firing.symbol) \(firing.price) at \(streamingBrokerName(firing.brokerID)) · alert #\(firing.alert.id)")))
            }
        }
        if alertLog.count > Self.alertLogLimit { alertLog.removeFirst(alertLog.count - Self.alertLogLimit) }
        let text = evaluation.firings.map { "\($0.symbol) \($0.alert.condition.summary) at \(streamingBrokerName($0.brokerID)): \($0.price)" }
        say(.warning, "Alert: \(text.joined(separator: " · ")) · L shows the log", at: now)
        if settings.alertBell { effects.insert(.bell, at: 0) }
        return effects
    }

    /// `!` on a row: the dialog, with the row's symbol and every broker's last price for a move's reference.
    mutating func openAlertDialog(at now: Date) {
        guard let row = selectedRow else {
            say(.info, "Add a symbol first: a adds one, then ! sets an alert on its row", at: now)
            return
        }
        var prices: [String: ExactDecimal] = [:]
        for broker in brokers {
            if let quote = quotes.entry(for: QuoteKey(brandID: broker.id, symbol: row.key.symbol))?.quote, quote.last.isPositive {
                prices[broker.id] = quote.last
            }
        }
        message = nil
        front = .alertDialog(AlertDialog(context: AlertInput.Context(
            symbol: row.key.symbol, rowBroker: row.branding, brokers: brokers, lastPrices: prices)))
    }

    /// `L`: the alert log; the highlighted rows count as seen.
    mutating func openAlertLog() {
        alertedRows = []
        front = .alertLog(AlertLogScreen())
    }

    mutating func alertsPersisted(_ edit: AlertEdit, _ result: Result<AlertEditOutcome, WatchlistStoreError>, at now: Date) {
        let outcome: AlertEditOutcome
        switch result {
        case .success(let saved):
            outcome = saved
        case .failure(let error):
            switch edit {
            case .add(let draft):
                say(.error, "Alert on \(draft.symbol) not saved: \(error.description)", at: now)
            case .remove(let id):
                say(.error, "Could not delete alert #\(id): \(error.description)", at: now)
            case .record:
                // The alerts stay as evaluated in memory, so they do not fire again this run.
                say(.error, "Could not save the alerts that fired: \(error.description)", at: now)
            }
            return
        }
        alerts = outcome.alerts
        switch edit {
        case .add:
            if let added = outcome.added {
                say(.info, "Alert #\(added.id) set: \(added.summary) · L lists alerts\(settings.isSaved ? "" : " (this run only)")", at: now)
            }
        case .remove(let id):
            if let removed = outcome.removed {
                say(.info, "Deleted alert #\(removed.id): \(removed.summary)", at: now)
            } else {
                say(.info, "Alert #\(id) was already deleted (another window?)", at: now)
            }
        case .record:
            break
        }
        if !outcome.notes.isEmpty {
            say(.warning, outcome.notes.map(\.description).joined(separator: " · "), at: now)
        }
    }

    /// Any broker's name (the trading one in `brokerName` knows only brokers that trade).
    func streamingBrokerName(_ id: String) -> String {
        brokers.first { $0.id == id }?.name ?? id
    }
}
