import Domain
import Foundation
import Stores

/// A change to the saved alerts, applied by the runtime through `WatchlistStore` to what the file holds
/// now (another instance's alerts included), by alert id.
public enum AlertEdit: Sendable, Hashable {
    case add(AlertDraft)
    case remove(id: Int)
    /// Where these alerts stand after an evaluation (fired, rearmed).
    case record([Alert])

    /// Applies the edit to `book` and says what it did.
    public func apply(to book: inout AlertBook, at now: Date) -> AlertEditOutcome {
        var outcome = AlertEditOutcome(alerts: book)
        switch self {
        case .add(let draft): outcome.added = book.add(draft, at: now)
        case .remove(let id): outcome.removed = book.remove(id: id)
        case .record(let alerts): book.adoptStates(of: alerts)
        }
        outcome.alerts = book
        return outcome
    }
}

/// What an alert edit did, as the store saw it.
public struct AlertEditOutcome: Sendable, Hashable {
    /// Every alert after the edit.
    public var alerts: AlertBook
    public var added: Alert?
    /// For `.remove`: the alert as it was, or nil when another window had deleted it.
    public var removed: Alert?
    public var notes: [WatchlistLoadNote]

    public init(alerts: AlertBook, added: Alert? = nil, removed: Alert? = nil, notes: [WatchlistLoadNote] = []) {
        self.alerts = alerts
        self.added = added
        self.removed = removed
        self.notes = notes
    }
}
