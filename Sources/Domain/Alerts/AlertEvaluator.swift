import Foundation

/// Decides which alerts a quote fires. Pure: the book in, the book out with the firings; the app state
/// and `commonbroker alerts check` both call it, so a screen and a script agree.
///
/// - An armed alert on the quote's symbol, whose scope includes the quote's broker, fires when the last
///   trade meets its condition; it is then disarmed.
/// - A `.whenCleared` alert rearms when the broker that fired it sends a price that no longer meets the
///   condition; a `.once` alert never rearms.
/// - A stale quote (older than `staleAfter` at `now`) and a quote without a price (a last of zero or
///   less, as some brokers send before the first trade) neither fire nor clear anything.
public enum AlertEvaluator {
    public static func evaluate(
        _ quote: CommonQuote, from brokerID: String, in book: AlertBook, now: Date, staleAfter: TimeInterval
    ) -> AlertEvaluation {
        var evaluation = AlertEvaluation(book: book)
        guard quote.last.isPositive, now.timeIntervalSince(quote.timestamp) <= staleAfter else { return evaluation }
        for var alert in book.alerts where alert.symbol == quote.symbol && alert.scope.includes(brokerID: brokerID) {
            let met = alert.condition.isMet(by: quote.last)
            if alert.isArmed {
                guard met else { continue }
                alert.isArmed = false
                alert.lastFired = Alert.Fired(at: AlertBook.wholeSecond(now), brokerID: brokerID, price: quote.last)
                evaluation.firings.append(AlertFiring(alert: alert, brokerID: brokerID, price: quote.last, at: now))
            } else {
                guard alert.rearm == .whenCleared, !met, alert.lastFired?.brokerID ?? brokerID == brokerID else { continue }
                alert.isArmed = true
            }
            evaluation.book.replace(alert)
            evaluation.changed.append(alert)
        }
        return evaluation
    }

    /// Every quote of a batch, in (symbol, broker) order so the result does not depend on a dictionary's
    /// order. An alert appears in `changed` once, as it stands at the end.
    public static func evaluate(
        _ quotes: [QuoteKey: CommonQuote], in book: AlertBook, now: Date, staleAfter: TimeInterval
    ) -> AlertEvaluation {
        var evaluation = AlertEvaluation(book: book)
        guard !book.isEmpty else { return evaluation }
        let watched = book.symbols
        for key in quotes.keys.filter({ watched.contains($0.symbol) }).sorted() {
            guard let quote = quotes[key] else { continue }
            let step = evaluate(quote, from: key.brandID, in: evaluation.book, now: now, staleAfter: staleAfter)
            evaluation.book = step.book
            evaluation.firings += step.firings
            for alert in step.changed {
                evaluation.changed.removeAll { $0.id == alert.id }
                evaluation.changed.append(alert)
            }
        }
        return evaluation
    }
}
